/// Greets in two scripts: "héllo 🌍".
pub fn greet(name: &str) -> String {
    let s = "héllo 🌍"; let unused = 1;
    format!("{s} {name}")
}

pub fn add(a: i32, b: i32) -> i32 {
    return a + b;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_adds() {
        let x = 5;
        assert_eq!(add(1, 2), 3);
    }
}
