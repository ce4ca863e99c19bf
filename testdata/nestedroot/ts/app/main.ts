import { greet } from "../lib/greet";

export const message: string = greet("app");
