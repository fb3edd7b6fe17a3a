/** Port: the time. Every use case asks it instead of `new Date()`, so tests can fix or move time. */
export interface Clock {
  now(): Date;
}
