export * from './template-variables.js';
export * from './templates.js';
export * from './built-in-templates.js';
