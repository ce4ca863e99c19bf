export default [
  {
    files: ["src/**/*.js"],
    rules: {
      "no-unused-vars": "error",
      "no-undef": "error",
      eqeqeq: "warn",
      "no-console": "warn",
    },
    languageOptions: { sourceType: "module", globals: { console: "readonly" } },
  },
];
