import { greet } from "../../core/src/index";

export const page: string = greet("web");
