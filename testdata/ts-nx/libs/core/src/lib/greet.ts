/** greet returns a greeting for name. */
export function greet(name: string): string {
  return "hello, " + name;
}
