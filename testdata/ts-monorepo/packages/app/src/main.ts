import { greet } from "@acme/core";

console.log(greet("app"));
