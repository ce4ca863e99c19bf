// "😀 é" put characters outside the BMP and non-ASCII before findings.
const greeting = "😀 é"; const unused = 1;
export function greet(name) {
  if (name == greeting) { console.log(missing); }
  return name;
}
