// Config for the captures in this folder (see README.md).
export default [
  { ignores: ["src/vendor/**"] },
  {
    files: ["src/**/*.js"],
    languageOptions: { sourceType: "module" },
    rules: {
      "no-unused-vars": "warn",
      "no-undef": "error",
      "eqeqeq": "error",
      "no-console": "warn",
    },
  },
];
