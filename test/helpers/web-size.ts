// The budget check lives with the build (it fails `npm run build`); the browser tests assert it too.
export {
  budgetMisses,
  EXH_EVENT_JS_BUDGET_BYTES,
  measureWebSize,
  NEVER_FOR_EXHIBITORS,
  SIGNIN_JS_BUDGET_BYTES,
  type WebSizeReport,
} from '../../scripts/web-budget.ts';
