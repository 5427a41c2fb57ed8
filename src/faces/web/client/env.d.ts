// Vite turns CSS imports into stylesheets linked from the page; the type checker only needs to know they exist.
declare module "*.css";
