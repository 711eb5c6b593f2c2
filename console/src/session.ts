/** The admin token lives in sessionStorage: it survives reloads but not closing the tab. */
const KEY = "trellis.adminToken";

export function loadToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function saveToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function clearToken(): void {
  sessionStorage.removeItem(KEY);
}
