export * from './lib/greet';
