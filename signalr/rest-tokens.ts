/**
 * Signs the tokens of Azure SignalR Service's serverless mode with jose (HS256, the connection
 * string's AccessKey): a REST call's, whose claims are its URL as audience and a short exp, and
 * a client's, whose audience is its client URL and whose nameid is its user. What the claims are
 * is core/serverless's; this file only signs them. The key and the tokens are secrets: nothing
 * here prints, keeps or returns them but the token itself.
 */
import { clientTokenClaims, restTokenClaims, type ClientClaims } from '../core/serverless/index.ts';

const encoder = new TextEncoder();

async function sign(claims: ClientClaims, accessKey: string, nowSeconds: number): Promise<string> {
  // Loaded at the first token: jose is ~40 ms of CPU at start-up (node 20), paid by every run
  // of the runner where only serverless runs sign (issue 44, the runner's start-up).
  const { SignJWT } = await import('jose');
  const { aud, exp, ...rest } = claims;
  return new SignJWT(rest)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setAudience(aud)
    .setIssuedAt(Math.floor(nowSeconds))
    .setExpirationTime(exp)
    .sign(encoder.encode(accessKey));
}

/** A token for one REST call to `url`. */
export function signRestToken(url: string, accessKey: string, nowSeconds = Date.now() / 1000, lifetimeSeconds?: number): Promise<string> {
  return sign(restTokenClaims(url, nowSeconds, lifetimeSeconds), accessKey, nowSeconds);
}

/** A token for a client connecting to `clientUrl` ({clientEndpoint}/client/?hub={hub}) as `user`. */
export function signClientToken(clientUrl: string, accessKey: string, user?: string, nowSeconds = Date.now() / 1000, lifetimeSeconds?: number): Promise<string> {
  return sign(clientTokenClaims(clientUrl, nowSeconds, user, lifetimeSeconds), accessKey, nowSeconds);
}
