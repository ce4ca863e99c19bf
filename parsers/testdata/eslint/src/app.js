const greeting = "héllo 🌍 wörld"; const unused = 1;
function check(a) {
  if (a == null) { return undefinedThing; }
  console.log("😀😀", greeting); return a;
}
check(1);
