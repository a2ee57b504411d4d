import type { Hook, HookMap } from 'tapable';
import { MiraError, isMiraError, toMiraError } from './errors.js';

/**
 * Decides what happens to an error thrown by the tap named `tapName`: rethrow the returned error, or
 * swallow it when undefined.
 */
export type TapErrorPolicy = (error: unknown, tapName: string) => Error | undefined;

interface MutableTap {
  type: 'sync' | 'async' | 'promise';
  name: string;
  fn: (...args: unknown[]) => unknown;
}

/**
 * Wraps every tap of `hook` (present and future) so an error it throws goes
 * through `policy`. Used to name the plugin in errors raised inside its tap,
 * and to keep shutdown going when one stop fails.
 */
export function interceptTapErrors(hook: Hook<any, any>, policy: TapErrorPolicy): void {
  hook.intercept({
    register: (tapInfo) => {
      const tap = tapInfo as unknown as MutableTap;
      const original = tap.fn;
      if (tap.type === 'sync') {
        tap.fn = (...args) => {
          try {
            return original(...args);
          } catch (error) {
            const replacement = policy(error, tap.name);
            if (replacement) throw replacement;
            return args[0];
          }
        };
      } else if (tap.type === 'promise') {
        tap.fn = async (...args) => {
          try {
            return await original(...args);
          } catch (error) {
            const replacement = policy(error, tap.name);
            if (replacement) throw replacement;
            return args[0];
          }
        };
      } else {
        tap.fn = (...args) => {
          const callback = args.pop() as (error?: unknown, result?: unknown) => void;
          original(...args, (error?: unknown, result?: unknown) => {
            if (error) {
              const replacement = policy(error, tap.name);
              return replacement ? callback(replacement) : callback(undefined, args[0]);
            }
            return callback(undefined, result);
          });
        };
      }
      return tapInfo;
    },
  });
}

/** {@link interceptTapErrors} for every hook a `HookMap` creates. */
export function interceptHookMapErrors<H extends Hook<any, any>>(map: HookMap<H>, policy: TapErrorPolicy): void {
  map.intercept({
    factory: (_key, hook) => {
      interceptTapErrors(hook, policy);
      return hook;
    },
  });
}

/** A policy that rethrows with the plugin (tap) named, keeping codes of `MiraError`s. */
export function nameThePlugin(code: string, what: string): TapErrorPolicy {
  return (error, tapName) => {
    if (isMiraError(error) && error.detail.includes(tapName)) return error;
    // A Mira error keeps its code below, so its detail alone follows (the code is not said twice).
    const text = isMiraError(error) ? error.detail : error instanceof Error ? error.message : String(error);
    // The fix of the error's own situation, or of `code` for an error that is not Mira's.
    const failure = toMiraError(error, code);
    return new MiraError(failure.code, `plugin ${tapName} failed in ${what}: ${text}`, {
      cause: error,
      fix: failure.fix,
    });
  };
}
