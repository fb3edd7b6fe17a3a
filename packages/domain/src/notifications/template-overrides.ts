/** A tenant's own version of an email template. */
export interface TemplateOverride {
  key: string;
  subject: string;
  html: string;
  text: string;
  updatedAt: string;
}

/** Port: tenant overrides of email templates. */
export interface NotificationTemplateRepository {
  get(tenantId: string, key: string): Promise<TemplateOverride | null>;
  list(tenantId: string): Promise<TemplateOverride[]>;
  put(tenantId: string, t: TemplateOverride): Promise<void>;
  /** True when there was one. */
  delete(tenantId: string, key: string): Promise<boolean>;
}
