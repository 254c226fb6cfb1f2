/**
 * Structured logging: JSON lines (pino) on stdout, one child logger per component or reconcile.
 * Never log a secret: callers pass redacted values; `redactPaths` below catches the usual keys.
 */
import { pino, type Logger as PinoLogger, type DestinationStream } from 'pino';

export type Logger = PinoLogger;

export interface LoggerOptions {
  level?: string;
  /** Where lines go; stdout by default. */
  destination?: DestinationStream;
  /** Base fields added to every line. */
  base?: Record<string, unknown>;
}

const redactPaths = [
  'token',
  'password',
  'authorization',
  'headers.authorization',
  '*.token',
  '*.password',
  '*.authorization',
];

/** A root logger. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const opts = {
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    base: options.base ?? {},
    redact: { paths: redactPaths, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  return options.destination ? pino(opts, options.destination) : pino(opts, pino.destination({ sync: true }));
}

/** A logger that drops everything (tests that assert nothing about logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
