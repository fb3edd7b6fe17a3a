export * from './nodemailer-mailer.js';
export * from './outbox-folder-mailer.js';
export * from './mail-composer.js';
export * from './whatsapp-cloud-channel.js';
export * from './phone-numbers.js';
export * from './sql-notifications.js';
export * from './notification-channels.js';
