/** The error body of every failed API call; `message` is the Spanish text the user sees. */
export interface ApiErrorBody {
  error: {
    code: string;
    message: string;
    fields?: Record<string, string>;
  };
}
