import type { Container, ContainerModuleLoadOptions } from 'inversify';

/** A service identifier that carries the type it resolves to. */
export type Token<T> = symbol & { readonly __type?: T };

export function token<T>(name: string): Token<T> {
  return Symbol(name) as Token<T>;
}

type Tokens<A extends unknown[]> = { [K in keyof A]-?: Token<A[K]> };
type Bind = ContainerModuleLoadOptions['bind'] | Container['bind'];

/**
 * Binds `tok` to a singleton built by `factory` from `deps`. The dependency list is typed against the factory's
 * parameters, so a wrong or missing dependency is a compile error (no decorators, no reflection).
 */
export function provide<T, A extends unknown[]>(
  bind: Bind,
  tok: Token<T>,
  factory: (...args: A) => T,
  deps: Tokens<A>,
): void {
  (bind as Container['bind'])<T>(tok).toResolvedValue<A>(factory, deps).inSingletonScope();
}

export function provideValue<T>(bind: Bind, tok: Token<T>, value: T): void {
  (bind as Container['bind'])<T>(tok).toConstantValue(value);
}

/** Typed `container.get`. */
export function resolve<T>(c: Container, tok: Token<T>): T {
  return c.get<T>(tok);
}
