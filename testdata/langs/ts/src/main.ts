import { greet } from "./greet";

export function main(): void {
  console.log(greet("world"));
}

main();
