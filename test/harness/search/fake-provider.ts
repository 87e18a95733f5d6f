/** What each fake search provider implements; test/harness/search/registry.ts lists them, one per
 * entry of Ratify's provider registry (a missing fake fails the type check). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SearchProviderId } from '../../../lib/settings/search-providers.ts';
import type { SearchDoc } from '../fixture-corpus.ts';

export interface FakeRequestCtx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Path below the provider's base URL, e.g. /w/api.php */
  path: string;
  body: unknown;
  docs: SearchDoc[];
  /** The key this fake expects (keyed providers). */
  key: string;
  startedAt: number;
  /** SearXNG answers 403 to format=json when its settings do not enable the json format. */
  searxngJson: boolean;
}

export interface FakeSearchProvider {
  id: SearchProviderId;
  /** The key it expects by default (keyed providers). */
  defaultKey?: string;
  /** Answers a request in the provider's real format; false when the path is not one of its. */
  handle(c: FakeRequestCtx): boolean | Promise<boolean>;
  /** The provider's own error body for a status fault (429 carries retry-after in `headers`). */
  fault(res: ServerResponse, status: number, headers: Record<string, string>): void;
  /** What to put in Ratify's settings for this provider to reach the fake. */
  settings(base: string, key: string): { baseURL: string; apiKey?: string };
  /** One line for the harness's printable summary. */
  describe(base: string, key: string): string;
}
