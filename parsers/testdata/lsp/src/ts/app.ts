const greeting: string = "😀 é";
const n: number = greeting;
export const len = ["😀", "é"].lenght;
export function f(a: number): string {
  return a;
}
