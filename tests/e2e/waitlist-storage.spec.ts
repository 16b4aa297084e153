/**
 * The whole path, with its own server each: browser → dialog → function → database, then the database read
 * back after the server has stopped. These start a server of their own, so they run on the desktop project.
 */

import { createStore } from "../../src/server/app/store";
import { openPgliteDb } from "../../src/server/db/pglite";
import { findEntry } from "../support/find-entry";
import { DESKTOP_ONLY, expect, test } from "./fixtures";

async function signUp(page: import("@playwright/test").Page, baseUrl: string, values: Record<string, string>) {
  await page.goto(`${baseUrl}/`);
  await page.getByRole("banner").getByRole("link", { name: "Join the Waitlist" }).click();
  const dialog = page.locator('[role="dialog"]');
  for (const [label, value] of Object.entries(values)) await dialog.getByLabel(label, { exact: true }).fill(value);
  await dialog.getByLabel("I accept the").check();
  await dialog.getByRole("button", { name: "Join the Waitlist" }).click();
  return dialog;
}

test(
  "a sign-up is stored in the embedded database with the combined message",
  DESKTOP_ONLY,
  async ({ page, ownServer }) => {
    const server = await ownServer();
    const dialog = await signUp(page, server.url, {
      "Name (optional)": "  Ada Lovelace ",
      "Email (required)": " Ada@Example.com ",
      "Organization (optional)": "Analytical Engines",
      "How would you like to connect or contribute? (optional)": "Beta testing",
    });
    await expect(dialog.getByRole("heading", { name: "Thank you for signing up!" })).toBeVisible();
    const { dataDir } = server;
    await server.stop();

    const store = createStore(await openPgliteDb(dataDir));
    try {
      expect(await store.count()).toBe(1);
      expect(await findEntry(store, "ada@example.com")).toEqual({
        name: "Ada Lovelace",
        email: "Ada@Example.com",
        message: "Organization: Analytical Engines\n\nConnect: Beta testing",
      });
    } finally {
      await store.close();
    }
  },
);

test(
  "with the database unreachable, the dialog shows the failure toast and keeps the values",
  DESKTOP_ONLY,
  async ({ page, ownServer }) => {
    // Port 1 on loopback: nothing listens there, so every query is refused.
    const server = await ownServer({
      DATABASE_URL: "postgresql://user:password@db.invalid/waitlist",
      DATABASE_DRIVER: "neon-http",
      NEON_FETCH_ENDPOINT: "http://127.0.0.1:1/sql",
    });
    const dialog = await signUp(page, server.url, {
      "Email (required)": "unreachable@example.com",
      "Name (optional)": "Kept",
    });
    const toast = page.getByRole("alert").filter({ hasText: "Error" });
    await expect(toast).toContainText("Failed to submit. Please try again.");
    await expect(dialog.getByLabel("Email (required)")).toHaveValue("unreachable@example.com");
    await expect(dialog.getByLabel("Name (optional)")).toHaveValue("Kept");
    await expect(dialog.getByLabel("I accept the")).toBeChecked();
    expect(server.output()).toContain('"event":"waitlist.store_failed"');
    expect(server.output()).not.toContain("unreachable@example.com");
  },
);
