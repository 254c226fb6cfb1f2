/**
 * What the operator asks of Alertmanager (API v2): silences for maintenance windows. The HTTP
 * implementation is `alertmanager-client.ts`; maintenance steps depend only on this interface.
 */

/** A silence matcher as API v2 carries it. */
export interface SilenceMatcher {
  name: string;
  value: string;
  isRegex: boolean;
  /** Absent means true (Alertmanager ≥ 0.22 semantics). */
  isEqual?: boolean;
}

/** `POST /api/v2/silences` body (times are RFC 3339 on the wire, epoch ms here). */
export interface PostableSilence {
  /** Set to update an existing silence in place (or replace it). */
  id?: string;
  matchers: SilenceMatcher[];
  startsAt: number;
  endsAt: number;
  createdBy: string;
  comment: string;
}

/** A silence as `GET /api/v2/silences` returns it. */
export interface GettableSilence {
  id: string;
  status: { state: 'active' | 'pending' | 'expired' };
  updatedAt: number;
  matchers: SilenceMatcher[];
  startsAt: number;
  endsAt: number;
  createdBy: string;
  comment: string;
}

/** Alertmanager's API v2 as the operator uses it. */
export interface AlertmanagerApi {
  /** `GET /api/v2/silences` (every state, expired ones included while retained). */
  listSilences(signal?: AbortSignal): Promise<GettableSilence[]>;
  /** `POST /api/v2/silences`; resolves the silence ID. */
  createSilence(silence: PostableSilence, signal?: AbortSignal): Promise<string>;
  /** `DELETE /api/v2/silence/{id}` (expires it; an already expired one is not an error). */
  expireSilence(id: string, signal?: AbortSignal): Promise<void>;
}
