-- Text search and turnaround helpers for the lab's sample lists (docs/decisions/0025-search.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
-- unaccent() is STABLE (it reads its dictionary by name at run time); naming the dictionary makes
-- it safe to declare IMMUTABLE, as generated columns and index expressions require.
CREATE OR REPLACE FUNCTION "vl_fold"(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;
--> statement-breakpoint
-- What a search matches besides ids and codes: item, the names and e-mails written on the
-- submission, and the report code, folded (lower case, no accents).
CREATE OR REPLACE FUNCTION "vl_sample_search_text"(
  item_name text, submitter_name text, submitter_email text, client_name text,
  representative_name text, representative_email text, report_code text
) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT "vl_fold"(
    coalesce(item_name, '') || ' ' || coalesce(submitter_name, '') || ' ' || coalesce(submitter_email, '')
    || ' ' || coalesce(client_name, '') || ' ' || coalesce(representative_name, '') || ' '
    || coalesce(representative_email, '') || ' ' || coalesce(report_code, '')
  ) $$;
--> statement-breakpoint
-- The calendar day n business days after start_day (Saturdays and Sundays skipped; the start day
-- never counts), as common/domain/turnaround.ts computes it.
CREATE OR REPLACE FUNCTION "vl_add_business_days"(start_day date, n integer) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT d + (n / 5) * 7
      + CASE WHEN extract(isodow FROM d)::int + n % 5 > 5 THEN n % 5 + 2 ELSE n % 5 END
    FROM (SELECT start_day - CASE extract(isodow FROM start_day)::int WHEN 6 THEN 1 WHEN 7 THEN 2 ELSE 0 END AS d) s $$;
--> statement-breakpoint
-- The expected completion day: 10 business days (5 when urgent) after the day (UTC) the quote was
-- accepted, or after submission when no quote was accepted (docs/product/quotes.md).
CREATE OR REPLACE FUNCTION "vl_expected_completion"(
  submission_date timestamptz, quote_status text, quote_accepted_at timestamptz, urgency_level text
) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT "vl_add_business_days"(
    (timezone('UTC', CASE WHEN quote_status = 'accepted' AND quote_accepted_at IS NOT NULL
      THEN quote_accepted_at ELSE submission_date END))::date,
    CASE WHEN urgency_level = 'urgent' THEN 5 ELSE 10 END) $$;
