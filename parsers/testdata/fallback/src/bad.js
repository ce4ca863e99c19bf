// bad.js: a syntax error for node --check.
const prix = "3 €";
let total = ;
