export * from './sql-imports.js';
export * from './csv-parse-reader.js';
export * from './xlsx-workbook-writer.js';
