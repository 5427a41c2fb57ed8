// React contexts and the lessons each should surface.
import { caseFactory, type CaseSpec } from "../spec.js";

const c = caseFactory("re", ["react", "typescript"]);

export const reactCases: CaseSpec[] = [
  c(1, "Phase 2: Analytics dashboard", "The revenue chart keeps fetching its data in an endless loop", ["src/features/dashboard/RevenueChart.tsx", "src/features/dashboard/useRevenue.ts"], "network tab shows hundreds of identical requests", ["re.effect-deps-object"]),
  c(2, "Phase 3: Editable price table", "Deleting a row in the price editor leaves its typed value in the next row", ["src/components/table/EditableRows.tsx"], "", ["re.key-index"]),
  c(3, "Phase 2: Live notifications", "Two socket connections are opened when the page loads in development", ["src/features/notifications/useSocket.ts", "src/main.tsx"], "should we just drop StrictMode?", ["re.strict-double-effect"]),
  c(4, "Phase 3: Data fetching cleanup", "After renaming a project the sidebar and the list still show the old name", ["src/api/projects.ts", "src/api/queryKeys.ts"], "I call invalidateQueries(['project']) after the mutation succeeds", ["re.query-keys"]),
  c(5, "Phase 4: Draft autosave", "Autosave always sends the first version of the draft instead of the latest text", ["src/features/editor/useAutosave.ts"], "", ["re.stale-closure"]),
  c(6, "Phase 2: Signup form", "A console warning appears as soon as someone types in the company field", ["src/features/onboarding/CompanyStep.tsx"], "Warning: A component is changing an uncontrolled input to be controlled.", ["re.controlled-warning"]),
  c(7, "Phase 5: Marketing site on Next.js", "The pricing page shows an overlay saying the server and client HTML differ", ["app/pricing/page.tsx"], "only in production builds", ["re.hydration-mismatch", "re.useid-ssr"], { stack: ["react", "nextjs"] }),
  c(8, "Phase 3: Settings on the app router", "Show the API base URL in the client-side settings panel", ["app/settings/ClientPanel.tsx", "src/server/config.ts"], "I'll import the config module straight into the component", ["re.server-components-secrets"], { stack: ["react", "nextjs"] }),
  c(9, "Phase 4: Component tests", "Write tests for the invoice form's save and cancel buttons", ["src/features/invoices/InvoiceForm.test.tsx"], "should I add data-testid attributes everywhere?", ["re.testing-library-queries"]),
  c(10, "Phase 4: Component tests", "Test output for the profile form is flooded with warnings", ["src/features/settings/ProfileForm.test.tsx"], "Warning: An update to ProfileForm inside a test was not wrapped in act(...)", ["re.act-warning"]),
  c(11, "Phase 5: Performance pass", "The profiler shows the whole tree re-rendering whenever the auth token is refreshed", ["src/app/AuthProvider.tsx"], "", ["re.context-rerender"]),
  c(12, "Phase 5: Performance pass", "The table rows are wrapped in memo but still re-render on every parent update", ["src/components/table/Row.tsx", "src/components/table/Table.tsx"], "", ["re.memo-callbacks"]),
  c(13, "Phase 6: Production config", "Analytics never loads in the deployed build", ["vite.config.ts", ".env.production", "src/analytics/init.ts"], "works fine with npm run dev", ["re.env-vite"], { context_only: true }),
  c(14, "Phase 3: Search", "Search sometimes shows matches for what I typed two letters ago", ["src/features/search/SearchBox.tsx"], "", ["re.useeffect-fetch-race"]),
  c(15, "Phase 4: Accessibility audit", "Fix the keyboard problems the auditors found in the confirmation dialog", ["src/components/ui/Dialog.tsx"], "pressing tab moves to the page behind it", ["re.a11y-modal-focus"]),
  c(16, "Phase 5: Performance pass", "Every component that reads the cart re-renders when anything in it changes", ["src/stores/cart.ts"], "we use zustand for this", ["re.zustand-selectors"]),
  c(17, "Phase 3: Dashboard resilience", "One failing widget takes the whole dashboard page down", ["src/features/dashboard/Dashboard.tsx"], "", ["re.error-boundary"]),
  c(18, "Phase 2: Checkout form rewrite", "The checkout form re-renders everything on each keystroke and the validation is hand written", ["src/features/checkout/CheckoutForm.tsx"], "", ["re.form-library"]),
  c(19, "Phase 6: React 18 upgrade", "Measuring the panel height reads the old value since the upgrade", ["src/components/ui/Collapsible.tsx"], "this worked on 17", ["re.react-18-batching"]),
];
