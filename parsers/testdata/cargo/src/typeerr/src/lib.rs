pub fn greet(name: &str) -> String {
    let unused = 1;
    let s = "héllo 🌍"; let n: i32 = s;
    format!("{s} {name} {n}")
}

pub fn add(a: i32, b: i32) -> i32 {
    return a + b;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_adds() {
        assert_eq!(add(1, 2), 3);
    }
}
