/** The export token of the browser tests' shared server (a test value, not a secret). */
export const E2E_ADMIN_TOKEN = "e2e-export-token-not-a-secret-0123456789";
