import { createContext, useContext } from "react";
import type { ApiClient } from "./api-client.ts";

/** The signed-in client; views below the sign-in gate read it instead of threading the token around. */
export const ApiContext = createContext<ApiClient | null>(null);

export function useApi(): ApiClient {
  const api = useContext(ApiContext);
  if (!api) throw new Error("useApi() used outside the signed-in console");
  return api;
}
