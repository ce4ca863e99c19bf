import { greet } from "../../lib/src/greet";

export const message: string = greet("app");
