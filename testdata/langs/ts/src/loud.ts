import { greet } from "./greet";

/** A second caller of greet, one the tests never open. */
export function loud(): string {
  return greet("everyone").toUpperCase();
}
