// CSS imported for its side effect (Vite bundles it into one stylesheet file).
declare module '*.css';
