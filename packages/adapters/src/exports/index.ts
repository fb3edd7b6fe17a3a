export * from './sql-exports.js';
export * from './archiver-zip.js';
