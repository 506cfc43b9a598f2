// Express 4 is installed under the alias `express4`; its API surface used here matches @types/express.
declare module 'express4' {
  import express from 'express';
  export default express;
}
