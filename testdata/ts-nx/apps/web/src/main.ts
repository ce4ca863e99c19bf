import { greet } from "@acme/core";

export const page: string = greet("web");
