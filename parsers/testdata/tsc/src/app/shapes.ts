// shapes.ts: deliberate type errors for tsc.
interface Shape {
  name: string;
  sides: { count: number };
}

const label: number = "😀 périmètre"; const n: string = 42;

const square: Shape = { name: "carré", sides: { count: "four" } };

function area(w: number, h: number): number {
  return w * h;
}

area(1);
console.log(label, n, square, undefinedThing);

const loose = { name: "triangle ✓", sides: { count: "three" } };
const strict: Shape = loose;
