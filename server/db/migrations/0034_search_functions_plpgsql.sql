-- The generated columns' functions in PL/pgSQL (decision 0034). As SQL functions, PostgreSQL parsed
-- and planned their bodies again for every statement that wrote a sample (vl_add_business_days has a
-- subquery and cannot be inlined): about 110 µs of the database's CPU per submission. PL/pgSQL keeps
-- each function's compiled body and its expressions' plans for the whole session. Same arguments,
-- same results: the stored columns stay as they are.
CREATE OR REPLACE FUNCTION "vl_add_business_days"(start_day date, n integer) RETURNS date
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE STRICT
  AS $$
DECLARE
  -- A start on a weekend counts from the Friday before.
  d date := start_day - CASE extract(isodow FROM start_day)::int WHEN 6 THEN 1 WHEN 7 THEN 2 ELSE 0 END;
BEGIN
  RETURN d + (n / 5) * 7 + CASE WHEN extract(isodow FROM d)::int + n % 5 > 5 THEN n % 5 + 2 ELSE n % 5 END;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "vl_expected_completion"(
  submission_date timestamptz, quote_status text, quote_accepted_at timestamptz, urgency_level text
) RETURNS date
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
BEGIN
  RETURN "vl_add_business_days"(
    (timezone('UTC', CASE WHEN quote_status = 'accepted' AND quote_accepted_at IS NOT NULL
      THEN quote_accepted_at ELSE submission_date END))::date,
    CASE WHEN urgency_level = 'urgent' THEN 5 ELSE 10 END);
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "vl_sample_search_text"(
  item_name text, submitter_name text, submitter_email text, client_name text,
  representative_name text, representative_email text, report_code text
) RETURNS text
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
  AS $$
BEGIN
  RETURN "vl_fold"(
    coalesce(item_name, '') || ' ' || coalesce(submitter_name, '') || ' ' || coalesce(submitter_email, '')
    || ' ' || coalesce(client_name, '') || ' ' || coalesce(representative_name, '') || ' '
    || coalesce(representative_email, '') || ' ' || coalesce(report_code, ''));
END
$$;
