package parsers

// FallbackName is the last-resort format auto-detection falls back to.
const FallbackName = "fallback"
