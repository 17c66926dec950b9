--
-- PostgreSQL database dump
--

\restrict uR2wJuvHAxsZWRdMCAO3hTkT13Ra3k0i6uScbUNpS6MXtZEDBpquR8DIaHFq2dR

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: records_done_is_final(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.records_done_is_final() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'row % of job % is done, and a done row stays final', OLD.row, OLD.job
        USING ERRCODE = 'P0003';
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: attempts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.attempts (
    id bigint NOT NULL,
    job text NOT NULL,
    uid text NOT NULL,
    "row" integer,
    station text DEFAULT current_setting('application_name'::text) NOT NULL,
    reader text NOT NULL,
    outcome text NOT NULL,
    failure_class text,
    failure_detail text,
    phase text,
    page integer,
    detect_us bigint,
    identify_us bigint,
    write_us bigint,
    verify_us bigint,
    lock_us bigint,
    ledger_us bigint,
    removal_us bigint,
    exchanges integer DEFAULT 0 NOT NULL,
    airtime_us bigint,
    started_at text NOT NULL,
    finished_at text NOT NULL
);


--
-- Name: attempts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.attempts ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.attempts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    id bigint NOT NULL,
    job text,
    "row" integer,
    kind text NOT NULL,
    actor text,
    detail text,
    at text NOT NULL
);


--
-- Name: events_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: records; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.records (
    job text NOT NULL,
    "row" integer NOT NULL,
    fields_json text NOT NULL,
    message_sha256 text NOT NULL,
    message_length integer NOT NULL,
    state text DEFAULT 'pending'::text NOT NULL,
    uid text,
    claimed_by text,
    attempts integer DEFAULT 0 NOT NULL,
    created_at text NOT NULL,
    claimed_at text,
    finished_at text,
    chip text,
    bytes_sha256 text,
    byte_count integer,
    locked integer,
    signature_status text,
    written_at text,
    recorded_at text,
    key_id text,
    key_fingerprint text,
    reissue_of integer,
    original_message text,
    family text,
    CONSTRAINT records_check CHECK (((state = 'pending'::text) OR (uid IS NOT NULL))),
    CONSTRAINT records_locked_check CHECK ((locked = ANY (ARRAY[0, 1]))),
    CONSTRAINT records_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'claimed'::text, 'done'::text, 'failed'::text, 'burned'::text])))
);


--
-- Name: job_progress; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.job_progress AS
 SELECT records.job,
    count(*) AS total,
    count(*) FILTER (WHERE (records.state = 'pending'::text)) AS pending,
    count(*) FILTER (WHERE (records.state = 'claimed'::text)) AS claimed,
    count(*) FILTER (WHERE (records.state = 'done'::text)) AS done,
    count(*) FILTER (WHERE (records.state = 'failed'::text)) AS failed,
    count(*) FILTER (WHERE (records.state = 'burned'::text)) AS burned
   FROM public.records
  GROUP BY records.job;


--
-- Name: jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.jobs (
    name text NOT NULL,
    manifest_sha256 text NOT NULL,
    template_sha256 text NOT NULL,
    total_rows integer DEFAULT 0 NOT NULL,
    created_at text NOT NULL,
    started_at text,
    finished_at text,
    records_sha256 text
);


--
-- Name: key_changes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.key_changes (
    id bigint NOT NULL,
    job text NOT NULL,
    uid text NOT NULL,
    key_number integer NOT NULL,
    old_version integer NOT NULL,
    new_version integer NOT NULL,
    key_id text NOT NULL,
    old_fingerprint text NOT NULL,
    new_fingerprint text NOT NULL,
    state text NOT NULL,
    intended_at text NOT NULL,
    resolved_at text,
    CONSTRAINT key_changes_key_number_check CHECK (((key_number >= 0) AND (key_number <= 4))),
    CONSTRAINT key_changes_new_version_check CHECK (((new_version >= 0) AND (new_version <= 255))),
    CONSTRAINT key_changes_old_version_check CHECK (((old_version >= 0) AND (old_version <= 255))),
    CONSTRAINT key_changes_state_check CHECK ((state = ANY (ARRAY['intended'::text, 'done'::text, 'abandoned'::text])))
);


--
-- Name: key_changes_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.key_changes ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.key_changes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: ledger_schema; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ledger_schema (
    version integer NOT NULL
);


--
-- Name: seen_counters; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.seen_counters (
    job text NOT NULL,
    uid text NOT NULL,
    counter bigint NOT NULL,
    seen_at text NOT NULL
);


--
-- Name: stations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stations (
    name text NOT NULL,
    instance text NOT NULL,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    heartbeat_at timestamp with time zone DEFAULT now() NOT NULL,
    lease_expires timestamp with time zone NOT NULL,
    CONSTRAINT stations_name_check CHECK ((name ~ '^[A-Za-z0-9._-]{1,64}$'::text))
);


--
-- Name: sun_counters; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sun_counters (
    job text NOT NULL,
    uid text NOT NULL,
    counter integer NOT NULL,
    verified_at text NOT NULL,
    CONSTRAINT sun_counters_counter_check CHECK (((counter >= 0) AND (counter <= 16777215)))
);


--
-- Name: tags; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.tags AS
 SELECT records.uid,
    records.chip,
    records.job,
    records."row",
    records.bytes_sha256,
    records.byte_count,
    records.locked,
    records.signature_status,
    records.written_at,
    records.recorded_at,
    records.key_id,
    records.key_fingerprint,
    records.family
   FROM public.records
  WHERE (records.state = 'done'::text);


--
-- Data for Name: attempts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.attempts (id, job, uid, "row", station, reader, outcome, failure_class, failure_detail, phase, page, detect_us, identify_us, write_us, verify_us, lock_us, ledger_us, removal_us, exchanges, airtime_us, started_at, finished_at) FROM stdin;
1	sun	04D20000000001	1	station-a	station-a/sim:ntag424	done	\N	\N	ledger	\N	652	1302	62	389	3055	88269	358	22	148163	2026-12-07T08:39:40.387Z	2026-12-07T08:39:40.474Z
2	sun	04D20000000002	2	station-a	station-a/sim:ntag424	done	\N	\N	ledger	\N	300	1628	21	255	1963	37316	233	22	148163	2026-12-07T08:39:40.491Z	2026-12-07T08:39:40.526Z
3	sun	04D20000000003	3	station-a	station-a/sim:ntag424	done	\N	\N	ledger	\N	122	1156	17	352	2580	39818	142	22	148163	2026-12-07T08:39:40.535Z	2026-12-07T08:39:40.574Z
4	auth	04A20000000001	1	station-b	station-b/sim:ntag215	done	\N	\N	ledger	\N	303	4960	188	909	114	16159	372	40	179988	2026-12-07T08:39:40.957Z	2026-12-07T08:39:40.971Z
5	auth	04A20000000002	2	station-b	station-b/sim:ntag215	done	\N	\N	ledger	\N	29	2424	89	133	135	13590	172	40	179988	2026-12-07T08:39:40.984Z	2026-12-07T08:39:40.995Z
6	auth	04A20000000003	3	station-b	station-b/sim:ntag215	done	\N	\N	ledger	\N	154	2394	83	424	47	12482	240	40	179988	2026-12-07T08:39:41.003Z	2026-12-07T08:39:41.011Z
7	auth	04A20000000004	4	station-b	station-b/sim:ntag215	done	\N	\N	ledger	\N	69	2198	50	65	32	7664	229	40	179988	2026-12-07T08:39:41.019Z	2026-12-07T08:39:41.024Z
\.


--
-- Data for Name: events; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.events (id, job, "row", kind, actor, detail, at) FROM stdin;
\.


--
-- Data for Name: jobs; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.jobs (name, manifest_sha256, template_sha256, total_rows, created_at, started_at, finished_at, records_sha256) FROM stdin;
sun	c22218acac94d865ab8de3d97fb7b5c1f96aa5d8a64c2a2259a17e868c0691a3	3c71803e5f5c9b9e1ed144f10eda6972d8c23a821e3d8033a45b6506869afe9e	50	2026-12-07T08:39:40.304Z	2026-12-07T08:39:40.339Z	\N	820af242637a13d80aceb9aa5af066a17015a92ac5e473ec1d7f645c7b915922
auth	b0622f18d8f58ee2de43a29b3637e1a8c374d0e6bce196ba19e336d79f59caf9	428ae2495d59ca46489191583c5f7cd93c7c19706e8cc9ae86802332f7b06ecb	200	2026-12-07T08:39:40.804Z	2026-12-07T08:39:40.906Z	\N	7df04e3f6d20f244d7433839f7dfeb7676386fc51dcf500600a92263b819af9c
\.


--
-- Data for Name: key_changes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.key_changes (id, job, uid, key_number, old_version, new_version, key_id, old_fingerprint, new_fingerprint, state, intended_at, resolved_at) FROM stdin;
1	sun	04D20000000001	1	0	1	brand.K1	374708FFF7719DD5	2CF0EB7C0ED15870	done	2026-12-07T08:39:40.411Z	2026-12-07T08:39:40.418Z
2	sun	04D20000000001	2	0	1	brand.K2	374708FFF7719DD5	3C3609C46A979682	done	2026-12-07T08:39:40.422Z	2026-12-07T08:39:40.427Z
3	sun	04D20000000001	3	0	1	brand.K3	374708FFF7719DD5	96CA95DC3E995EDC	done	2026-12-07T08:39:40.436Z	2026-12-07T08:39:40.450Z
4	sun	04D20000000001	4	0	1	brand.K4	374708FFF7719DD5	547843F241C24460	done	2026-12-07T08:39:40.454Z	2026-12-07T08:39:40.459Z
5	sun	04D20000000001	0	0	1	brand.K0	374708FFF7719DD5	94AD885A311C2564	done	2026-12-07T08:39:40.463Z	2026-12-07T08:39:40.468Z
6	sun	04D20000000002	1	0	1	brand.K1	374708FFF7719DD5	2CF0EB7C0ED15870	done	2026-12-07T08:39:40.501Z	2026-12-07T08:39:40.505Z
7	sun	04D20000000002	2	0	1	brand.K2	374708FFF7719DD5	EF535B5CA111DF67	done	2026-12-07T08:39:40.508Z	2026-12-07T08:39:40.510Z
8	sun	04D20000000002	3	0	1	brand.K3	374708FFF7719DD5	0E924714AFB3D6B6	done	2026-12-07T08:39:40.512Z	2026-12-07T08:39:40.514Z
9	sun	04D20000000002	4	0	1	brand.K4	374708FFF7719DD5	ABEA6EA40EEDD3D4	done	2026-12-07T08:39:40.516Z	2026-12-07T08:39:40.519Z
10	sun	04D20000000002	0	0	1	brand.K0	374708FFF7719DD5	AE6B3462730E26F4	done	2026-12-07T08:39:40.521Z	2026-12-07T08:39:40.523Z
11	sun	04D20000000003	1	0	1	brand.K1	374708FFF7719DD5	2CF0EB7C0ED15870	done	2026-12-07T08:39:40.543Z	2026-12-07T08:39:40.547Z
12	sun	04D20000000003	2	0	1	brand.K2	374708FFF7719DD5	2BE4D72CB10C126D	done	2026-12-07T08:39:40.550Z	2026-12-07T08:39:40.553Z
13	sun	04D20000000003	3	0	1	brand.K3	374708FFF7719DD5	73C16792AB028E9A	done	2026-12-07T08:39:40.555Z	2026-12-07T08:39:40.558Z
14	sun	04D20000000003	4	0	1	brand.K4	374708FFF7719DD5	8B53D937A8094EF0	done	2026-12-07T08:39:40.561Z	2026-12-07T08:39:40.564Z
15	sun	04D20000000003	0	0	1	brand.K0	374708FFF7719DD5	2FA88FB0A730A322	done	2026-12-07T08:39:40.567Z	2026-12-07T08:39:40.571Z
\.


--
-- Data for Name: ledger_schema; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.ledger_schema (version) FROM stdin;
2
\.


--
-- Data for Name: records; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.records (job, "row", fields_json, message_sha256, message_length, state, uid, claimed_by, attempts, created_at, claimed_at, finished_at, chip, bytes_sha256, byte_count, locked, signature_status, written_at, recorded_at, key_id, key_fingerprint, reissue_of, original_message, family) FROM stdin;
sun	4	{"lot":"L2612-A","name":"Washer, M4","sku":"SKU-10004"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	5	{"lot":"L2612-A","name":"Wing nut, M4","sku":"SKU-10005"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	6	{"lot":"L2612-A","name":"Spring, 10 mm","sku":"SKU-10006"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	7	{"lot":"L2612-A","name":"Bracket, M4","sku":"SKU-10007"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	8	{"lot":"L2612-A","name":"Cable tie \\"heavy duty\\"","sku":"SKU-10008"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	9	{"lot":"L2612-A","name":"Bracket, M5","sku":"SKU-10009"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	10	{"lot":"L2612-A","name":"Wing nut, M6","sku":"SKU-10010"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	11	{"lot":"L2612-A","name":"Hinge, M4","sku":"SKU-10011"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	12	{"lot":"L2612-A","name":"Bracket, M6","sku":"SKU-10012"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	13	{"lot":"L2612-A","name":"Hinge, M5","sku":"SKU-10013"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	14	{"lot":"L2612-A","name":"Bracket, M6","sku":"SKU-10014"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	15	{"lot":"L2612-A","name":"Cable tie, M4","sku":"SKU-10015"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	16	{"lot":"L2612-A","name":"Cable tie, 12 mm","sku":"SKU-10016"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	17	{"lot":"L2612-A","name":"Spring, 10 mm","sku":"SKU-10017"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	18	{"lot":"L2612-A","name":"Hinge, M5","sku":"SKU-10018"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	19	{"lot":"L2612-A","name":"Hinge, M8","sku":"SKU-10019"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	20	{"lot":"L2612-A","name":"Bracket, M4","sku":"SKU-10020"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	21	{"lot":"L2612-A","name":"Bracket, M4","sku":"SKU-10021"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	22	{"lot":"L2612-A","name":"Bracket, 10 mm","sku":"SKU-10022"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	23	{"lot":"L2612-A","name":"Bracket, 10 mm","sku":"SKU-10023"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	24	{"lot":"L2612-A","name":"Hinge, M8","sku":"SKU-10024"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	25	{"lot":"L2612-A","name":"Spring, 10 mm","sku":"SKU-10025"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	26	{"lot":"L2612-A","name":"Bracket, M8","sku":"SKU-10026"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	27	{"lot":"L2612-A","name":"Gasket, M5","sku":"SKU-10027"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	28	{"lot":"L2612-A","name":"Hinge, M6","sku":"SKU-10028"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	29	{"lot":"L2612-A","name":"Bracket, M4","sku":"SKU-10029"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	30	{"lot":"L2612-A","name":"Wing nut, M4","sku":"SKU-10030"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	31	{"lot":"L2612-A","name":"Gasket, 12 mm","sku":"SKU-10031"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	32	{"lot":"L2612-A","name":"Bracket, 10 mm","sku":"SKU-10032"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	33	{"lot":"L2612-A","name":"Cable tie \\"heavy duty\\"","sku":"SKU-10033"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	34	{"lot":"L2612-A","name":"Washer, 12 mm","sku":"SKU-10034"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	35	{"lot":"L2612-A","name":"Hinge, M4","sku":"SKU-10035"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	36	{"lot":"L2612-A","name":"Spring, M5","sku":"SKU-10036"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	37	{"lot":"L2612-A","name":"Gasket, M6","sku":"SKU-10037"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	38	{"lot":"L2612-A","name":"Washer, M6","sku":"SKU-10038"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	39	{"lot":"L2612-A","name":"Spring, 12 mm","sku":"SKU-10039"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	40	{"lot":"L2612-A","name":"Cable tie, 12 mm","sku":"SKU-10040"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	41	{"lot":"L2612-A","name":"Hinge, M6","sku":"SKU-10041"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	42	{"lot":"L2612-A","name":"Wing nut, M4","sku":"SKU-10042"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	43	{"lot":"L2612-A","name":"Hinge, M6","sku":"SKU-10043"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	44	{"lot":"L2612-A","name":"Hinge, M4","sku":"SKU-10044"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	45	{"lot":"L2612-A","name":"Cable tie, M5","sku":"SKU-10045"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	46	{"lot":"L2612-A","name":"Bracket, M8","sku":"SKU-10046"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	47	{"lot":"L2612-A","name":"Hex bolt, M4","sku":"SKU-10047"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	48	{"lot":"L2612-A","name":"Cable tie, 12 mm","sku":"SKU-10048"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	49	{"lot":"L2612-A","name":"Wing nut, M6","sku":"SKU-10049"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	50	{"lot":"L2612-A","name":"Cable tie, M4","sku":"SKU-10050"}		82	pending	\N	\N	0	2026-12-07T08:39:40.309Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	1	{"lot":"L2612-A","name":"Hinge, M6","sku":"SKU-10001"}		82	done	04D20000000001	station-a/sim:ntag424	1	2026-12-07T08:39:40.309Z	2026-12-07T08:39:40.389Z	2026-12-07T08:39:40.476Z	ntag424	e819e0cffbd6fc368954bf94ae939ce1038530fe0d2747acaf50877cc79c95a4	82	1	valid	2026-12-07T08:39:40.474Z	2026-12-07T08:39:40.476Z	brand	BE45CB2605BF36BE	\N	\N	type4
sun	3	{"lot":"L2612-A","name":"Spring, M8","sku":"SKU-10003"}		82	done	04D20000000003	station-a/sim:ntag424	1	2026-12-07T08:39:40.309Z	2026-12-07T08:39:40.536Z	2026-12-07T08:39:40.576Z	ntag424	0aa761fce17d801a0bb964bb2d1dc0703e1642bb30c378cde1689bf398f31dc2	82	1	valid	2026-12-07T08:39:40.574Z	2026-12-07T08:39:40.576Z	brand	BE45CB2605BF36BE	\N	\N	type4
auth	51	{"lot":"L2612-B","name":"Cable tie, M6","sku":"SKU-10051"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
sun	2	{"lot":"L2612-A","name":"Wing nut, 12 mm","sku":"SKU-10002"}		82	done	04D20000000002	station-a/sim:ntag424	1	2026-12-07T08:39:40.309Z	2026-12-07T08:39:40.492Z	2026-12-07T08:39:40.527Z	ntag424	6e7d18621fe6bee536f75444aee3dab9f63d8898e680650a1661f1f16fd48803	82	1	valid	2026-12-07T08:39:40.526Z	2026-12-07T08:39:40.527Z	brand	BE45CB2605BF36BE	\N	\N	type4
auth	5	{"lot":"L2612-A","name":"Wing nut, M4","sku":"SKU-10005"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	6	{"lot":"L2612-A","name":"Spring, 10 mm","sku":"SKU-10006"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	7	{"lot":"L2612-A","name":"Bracket, M4","sku":"SKU-10007"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	8	{"lot":"L2612-A","name":"Cable tie \\"heavy duty\\"","sku":"SKU-10008"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	9	{"lot":"L2612-A","name":"Bracket, M5","sku":"SKU-10009"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	10	{"lot":"L2612-A","name":"Wing nut, M6","sku":"SKU-10010"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	11	{"lot":"L2612-A","name":"Hinge, M4","sku":"SKU-10011"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	12	{"lot":"L2612-A","name":"Bracket, M6","sku":"SKU-10012"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	13	{"lot":"L2612-A","name":"Hinge, M5","sku":"SKU-10013"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	14	{"lot":"L2612-A","name":"Bracket, M6","sku":"SKU-10014"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	15	{"lot":"L2612-A","name":"Cable tie, M4","sku":"SKU-10015"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	16	{"lot":"L2612-A","name":"Cable tie, 12 mm","sku":"SKU-10016"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	17	{"lot":"L2612-A","name":"Spring, 10 mm","sku":"SKU-10017"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	18	{"lot":"L2612-A","name":"Hinge, M5","sku":"SKU-10018"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	19	{"lot":"L2612-A","name":"Hinge, M8","sku":"SKU-10019"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	20	{"lot":"L2612-A","name":"Bracket, M4","sku":"SKU-10020"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	21	{"lot":"L2612-A","name":"Bracket, M4","sku":"SKU-10021"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	22	{"lot":"L2612-A","name":"Bracket, 10 mm","sku":"SKU-10022"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	23	{"lot":"L2612-A","name":"Bracket, 10 mm","sku":"SKU-10023"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	24	{"lot":"L2612-A","name":"Hinge, M8","sku":"SKU-10024"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	25	{"lot":"L2612-A","name":"Spring, 10 mm","sku":"SKU-10025"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	26	{"lot":"L2612-A","name":"Bracket, M8","sku":"SKU-10026"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	27	{"lot":"L2612-A","name":"Gasket, M5","sku":"SKU-10027"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	28	{"lot":"L2612-A","name":"Hinge, M6","sku":"SKU-10028"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	29	{"lot":"L2612-A","name":"Bracket, M4","sku":"SKU-10029"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	30	{"lot":"L2612-A","name":"Wing nut, M4","sku":"SKU-10030"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	31	{"lot":"L2612-A","name":"Gasket, 12 mm","sku":"SKU-10031"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	32	{"lot":"L2612-A","name":"Bracket, 10 mm","sku":"SKU-10032"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	33	{"lot":"L2612-A","name":"Cable tie \\"heavy duty\\"","sku":"SKU-10033"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	34	{"lot":"L2612-A","name":"Washer, 12 mm","sku":"SKU-10034"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	35	{"lot":"L2612-A","name":"Hinge, M4","sku":"SKU-10035"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	36	{"lot":"L2612-A","name":"Spring, M5","sku":"SKU-10036"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	37	{"lot":"L2612-A","name":"Gasket, M6","sku":"SKU-10037"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	38	{"lot":"L2612-A","name":"Washer, M6","sku":"SKU-10038"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	39	{"lot":"L2612-A","name":"Spring, 12 mm","sku":"SKU-10039"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	40	{"lot":"L2612-A","name":"Cable tie, 12 mm","sku":"SKU-10040"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	41	{"lot":"L2612-A","name":"Hinge, M6","sku":"SKU-10041"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	42	{"lot":"L2612-A","name":"Wing nut, M4","sku":"SKU-10042"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	43	{"lot":"L2612-A","name":"Hinge, M6","sku":"SKU-10043"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	44	{"lot":"L2612-A","name":"Hinge, M4","sku":"SKU-10044"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	45	{"lot":"L2612-A","name":"Cable tie, M5","sku":"SKU-10045"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	46	{"lot":"L2612-A","name":"Bracket, M8","sku":"SKU-10046"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	47	{"lot":"L2612-A","name":"Hex bolt, M4","sku":"SKU-10047"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	48	{"lot":"L2612-A","name":"Cable tie, 12 mm","sku":"SKU-10048"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	49	{"lot":"L2612-A","name":"Wing nut, M6","sku":"SKU-10049"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	50	{"lot":"L2612-A","name":"Cable tie, M4","sku":"SKU-10050"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	4	{"lot":"L2612-A","name":"Washer, M4","sku":"SKU-10004"}		72	done	04A20000000004	station-b/sim:ntag215	1	2026-12-07T08:39:40.813Z	2026-12-07T08:39:41.020Z	2026-12-07T08:39:41.025Z	ntag215	f7d97f26b10b2ddc54d1c10907d6c371f0bbba0c5fa1ac3b4ac92661773b9245	72	0	valid	2026-12-07T08:39:41.024Z	2026-12-07T08:39:41.025Z	brand	630DCD2966C43366	\N	\N	type2
auth	52	{"lot":"L2612-B","name":"Cable tie, M5","sku":"SKU-10052"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	53	{"lot":"L2612-B","name":"Spring, 10 mm","sku":"SKU-10053"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	54	{"lot":"L2612-B","name":"Wing nut, M6","sku":"SKU-10054"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	55	{"lot":"L2612-B","name":"Hinge, M8","sku":"SKU-10055"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	56	{"lot":"L2612-B","name":"Bracket, M5","sku":"SKU-10056"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	57	{"lot":"L2612-B","name":"Bracket, M8","sku":"SKU-10057"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	58	{"lot":"L2612-B","name":"Hex bolt \\"heavy duty\\"","sku":"SKU-10058"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	59	{"lot":"L2612-B","name":"Cable tie, M4","sku":"SKU-10059"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	60	{"lot":"L2612-B","name":"Gasket, M5","sku":"SKU-10060"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	61	{"lot":"L2612-B","name":"Cable tie, M6","sku":"SKU-10061"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	62	{"lot":"L2612-B","name":"Bracket, 10 mm","sku":"SKU-10062"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	63	{"lot":"L2612-B","name":"Wing nut, M8","sku":"SKU-10063"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	64	{"lot":"L2612-B","name":"Hinge, M8","sku":"SKU-10064"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	65	{"lot":"L2612-B","name":"Hinge, M4","sku":"SKU-10065"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	66	{"lot":"L2612-B","name":"Hex bolt, M4","sku":"SKU-10066"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	67	{"lot":"L2612-B","name":"Hex bolt, 12 mm","sku":"SKU-10067"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	68	{"lot":"L2612-B","name":"Washer, 10 mm","sku":"SKU-10068"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	69	{"lot":"L2612-B","name":"Washer, 10 mm","sku":"SKU-10069"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	70	{"lot":"L2612-B","name":"Hex bolt, 10 mm","sku":"SKU-10070"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	71	{"lot":"L2612-B","name":"Gasket, 10 mm","sku":"SKU-10071"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	72	{"lot":"L2612-B","name":"Hinge, M6","sku":"SKU-10072"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	73	{"lot":"L2612-B","name":"Hex bolt, M4","sku":"SKU-10073"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	74	{"lot":"L2612-B","name":"Bracket, M8","sku":"SKU-10074"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	75	{"lot":"L2612-B","name":"Hinge, M8","sku":"SKU-10075"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	76	{"lot":"L2612-B","name":"Hinge, M5","sku":"SKU-10076"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	77	{"lot":"L2612-B","name":"Gasket, M8","sku":"SKU-10077"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	78	{"lot":"L2612-B","name":"Gasket, M4","sku":"SKU-10078"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	79	{"lot":"L2612-B","name":"Hinge, M8","sku":"SKU-10079"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	80	{"lot":"L2612-B","name":"Gasket, M5","sku":"SKU-10080"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	81	{"lot":"L2612-B","name":"Spring, M5","sku":"SKU-10081"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	82	{"lot":"L2612-B","name":"Gasket, M5","sku":"SKU-10082"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	83	{"lot":"L2612-B","name":"Bracket \\"heavy duty\\"","sku":"SKU-10083"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	84	{"lot":"L2612-B","name":"Bracket, M5","sku":"SKU-10084"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	85	{"lot":"L2612-B","name":"Hinge, M5","sku":"SKU-10085"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	86	{"lot":"L2612-B","name":"Spring, M6","sku":"SKU-10086"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	87	{"lot":"L2612-B","name":"Washer, M6","sku":"SKU-10087"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	88	{"lot":"L2612-B","name":"Hex bolt, M6","sku":"SKU-10088"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	89	{"lot":"L2612-B","name":"Wing nut, 10 mm","sku":"SKU-10089"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	90	{"lot":"L2612-B","name":"Spring, 12 mm","sku":"SKU-10090"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	91	{"lot":"L2612-B","name":"Hex bolt, M8","sku":"SKU-10091"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	92	{"lot":"L2612-B","name":"Spring, M4","sku":"SKU-10092"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	93	{"lot":"L2612-B","name":"Spring, M5","sku":"SKU-10093"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	94	{"lot":"L2612-B","name":"Washer, M6","sku":"SKU-10094"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	95	{"lot":"L2612-B","name":"Bracket, 12 mm","sku":"SKU-10095"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	96	{"lot":"L2612-B","name":"Gasket, 12 mm","sku":"SKU-10096"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	97	{"lot":"L2612-B","name":"Cable tie, M8","sku":"SKU-10097"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	98	{"lot":"L2612-B","name":"Hinge, 12 mm","sku":"SKU-10098"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	99	{"lot":"L2612-B","name":"Bracket, M6","sku":"SKU-10099"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	100	{"lot":"L2612-B","name":"Spring, M8","sku":"SKU-10100"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	101	{"lot":"L2612-C","name":"Wing nut, M6","sku":"SKU-10101"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	102	{"lot":"L2612-C","name":"Hinge, M4","sku":"SKU-10102"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	103	{"lot":"L2612-C","name":"Spring, 10 mm","sku":"SKU-10103"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	104	{"lot":"L2612-C","name":"Washer, M6","sku":"SKU-10104"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	105	{"lot":"L2612-C","name":"Hex bolt, M5","sku":"SKU-10105"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	106	{"lot":"L2612-C","name":"Gasket, 10 mm","sku":"SKU-10106"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	107	{"lot":"L2612-C","name":"Gasket, 12 mm","sku":"SKU-10107"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	108	{"lot":"L2612-C","name":"Hinge \\"heavy duty\\"","sku":"SKU-10108"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	109	{"lot":"L2612-C","name":"Hex bolt, M5","sku":"SKU-10109"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	110	{"lot":"L2612-C","name":"Washer, M4","sku":"SKU-10110"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	111	{"lot":"L2612-C","name":"Bracket, M4","sku":"SKU-10111"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	112	{"lot":"L2612-C","name":"Spring, M8","sku":"SKU-10112"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	113	{"lot":"L2612-C","name":"Hinge, 10 mm","sku":"SKU-10113"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	114	{"lot":"L2612-C","name":"Hex bolt, M5","sku":"SKU-10114"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	115	{"lot":"L2612-C","name":"Washer, 12 mm","sku":"SKU-10115"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	116	{"lot":"L2612-C","name":"Cable tie, 10 mm","sku":"SKU-10116"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	117	{"lot":"L2612-C","name":"Gasket, 10 mm","sku":"SKU-10117"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	118	{"lot":"L2612-C","name":"Gasket, M4","sku":"SKU-10118"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	119	{"lot":"L2612-C","name":"Wing nut, M4","sku":"SKU-10119"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	120	{"lot":"L2612-C","name":"Wing nut, M8","sku":"SKU-10120"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	121	{"lot":"L2612-C","name":"Bracket, 10 mm","sku":"SKU-10121"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	122	{"lot":"L2612-C","name":"Washer, M4","sku":"SKU-10122"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	123	{"lot":"L2612-C","name":"Cable tie, M4","sku":"SKU-10123"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	124	{"lot":"L2612-C","name":"Hex bolt, M6","sku":"SKU-10124"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	125	{"lot":"L2612-C","name":"Cable tie, M4","sku":"SKU-10125"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	126	{"lot":"L2612-C","name":"Wing nut, 10 mm","sku":"SKU-10126"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	127	{"lot":"L2612-C","name":"Gasket, M8","sku":"SKU-10127"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	128	{"lot":"L2612-C","name":"Hinge, M6","sku":"SKU-10128"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	129	{"lot":"L2612-C","name":"Spring, M5","sku":"SKU-10129"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	130	{"lot":"L2612-C","name":"Gasket, M8","sku":"SKU-10130"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	131	{"lot":"L2612-C","name":"Wing nut, M4","sku":"SKU-10131"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	132	{"lot":"L2612-C","name":"Wing nut, 10 mm","sku":"SKU-10132"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	133	{"lot":"L2612-C","name":"Spring \\"heavy duty\\"","sku":"SKU-10133"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	134	{"lot":"L2612-C","name":"Spring, 12 mm","sku":"SKU-10134"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	135	{"lot":"L2612-C","name":"Gasket, M4","sku":"SKU-10135"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	136	{"lot":"L2612-C","name":"Hinge, 12 mm","sku":"SKU-10136"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	137	{"lot":"L2612-C","name":"Bracket, M8","sku":"SKU-10137"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	138	{"lot":"L2612-C","name":"Spring, M4","sku":"SKU-10138"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	139	{"lot":"L2612-C","name":"Washer, M6","sku":"SKU-10139"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	140	{"lot":"L2612-C","name":"Washer, M5","sku":"SKU-10140"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	141	{"lot":"L2612-C","name":"Washer, M6","sku":"SKU-10141"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	142	{"lot":"L2612-C","name":"Gasket, M6","sku":"SKU-10142"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	143	{"lot":"L2612-C","name":"Bracket, 10 mm","sku":"SKU-10143"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	144	{"lot":"L2612-C","name":"Hex bolt, 12 mm","sku":"SKU-10144"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	145	{"lot":"L2612-C","name":"Washer, M4","sku":"SKU-10145"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	146	{"lot":"L2612-C","name":"Bracket, M4","sku":"SKU-10146"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	147	{"lot":"L2612-C","name":"Wing nut, M8","sku":"SKU-10147"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	148	{"lot":"L2612-C","name":"Gasket, 10 mm","sku":"SKU-10148"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	149	{"lot":"L2612-C","name":"Wing nut, 10 mm","sku":"SKU-10149"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	150	{"lot":"L2612-C","name":"Hinge, M8","sku":"SKU-10150"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	151	{"lot":"L2612-D","name":"Bracket, M6","sku":"SKU-10151"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	152	{"lot":"L2612-D","name":"Hinge, M5","sku":"SKU-10152"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	153	{"lot":"L2612-D","name":"Hex bolt, 12 mm","sku":"SKU-10153"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	154	{"lot":"L2612-D","name":"Hex bolt, 10 mm","sku":"SKU-10154"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	155	{"lot":"L2612-D","name":"Cable tie, 10 mm","sku":"SKU-10155"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	156	{"lot":"L2612-D","name":"Gasket, 10 mm","sku":"SKU-10156"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	157	{"lot":"L2612-D","name":"Bracket, 10 mm","sku":"SKU-10157"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	158	{"lot":"L2612-D","name":"Gasket \\"heavy duty\\"","sku":"SKU-10158"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	159	{"lot":"L2612-D","name":"Spring, M5","sku":"SKU-10159"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	160	{"lot":"L2612-D","name":"Bracket, 10 mm","sku":"SKU-10160"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	161	{"lot":"L2612-D","name":"Cable tie, 12 mm","sku":"SKU-10161"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	162	{"lot":"L2612-D","name":"Cable tie, M5","sku":"SKU-10162"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	163	{"lot":"L2612-D","name":"Spring, M4","sku":"SKU-10163"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	164	{"lot":"L2612-D","name":"Washer, 12 mm","sku":"SKU-10164"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	165	{"lot":"L2612-D","name":"Washer, M6","sku":"SKU-10165"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	166	{"lot":"L2612-D","name":"Cable tie, M5","sku":"SKU-10166"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	167	{"lot":"L2612-D","name":"Cable tie, 12 mm","sku":"SKU-10167"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	168	{"lot":"L2612-D","name":"Wing nut, M4","sku":"SKU-10168"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	169	{"lot":"L2612-D","name":"Spring, 12 mm","sku":"SKU-10169"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	170	{"lot":"L2612-D","name":"Washer, M6","sku":"SKU-10170"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	171	{"lot":"L2612-D","name":"Cable tie, M6","sku":"SKU-10171"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	172	{"lot":"L2612-D","name":"Washer, M6","sku":"SKU-10172"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	173	{"lot":"L2612-D","name":"Hex bolt, 10 mm","sku":"SKU-10173"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	174	{"lot":"L2612-D","name":"Hex bolt, 10 mm","sku":"SKU-10174"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	175	{"lot":"L2612-D","name":"Wing nut, M6","sku":"SKU-10175"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	176	{"lot":"L2612-D","name":"Wing nut, M5","sku":"SKU-10176"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	177	{"lot":"L2612-D","name":"Washer, 10 mm","sku":"SKU-10177"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	178	{"lot":"L2612-D","name":"Gasket, 12 mm","sku":"SKU-10178"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	179	{"lot":"L2612-D","name":"Wing nut, M4","sku":"SKU-10179"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	180	{"lot":"L2612-D","name":"Washer, 12 mm","sku":"SKU-10180"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	181	{"lot":"L2612-D","name":"Gasket, 12 mm","sku":"SKU-10181"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	182	{"lot":"L2612-D","name":"Hinge, 10 mm","sku":"SKU-10182"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	183	{"lot":"L2612-D","name":"Spring \\"heavy duty\\"","sku":"SKU-10183"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	184	{"lot":"L2612-D","name":"Hinge, M8","sku":"SKU-10184"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	185	{"lot":"L2612-D","name":"Hinge, M6","sku":"SKU-10185"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	186	{"lot":"L2612-D","name":"Cable tie, M5","sku":"SKU-10186"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	187	{"lot":"L2612-D","name":"Cable tie, 10 mm","sku":"SKU-10187"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	188	{"lot":"L2612-D","name":"Gasket, M8","sku":"SKU-10188"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	189	{"lot":"L2612-D","name":"Spring, M6","sku":"SKU-10189"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	190	{"lot":"L2612-D","name":"Bracket, M8","sku":"SKU-10190"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	191	{"lot":"L2612-D","name":"Spring, 10 mm","sku":"SKU-10191"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	192	{"lot":"L2612-D","name":"Hex bolt, M6","sku":"SKU-10192"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	193	{"lot":"L2612-D","name":"Washer, 10 mm","sku":"SKU-10193"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	194	{"lot":"L2612-D","name":"Gasket, 12 mm","sku":"SKU-10194"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	195	{"lot":"L2612-D","name":"Cable tie, M8","sku":"SKU-10195"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	196	{"lot":"L2612-D","name":"Spring, 10 mm","sku":"SKU-10196"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	197	{"lot":"L2612-D","name":"Hex bolt, M5","sku":"SKU-10197"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	198	{"lot":"L2612-D","name":"Wing nut, M8","sku":"SKU-10198"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	199	{"lot":"L2612-D","name":"Cable tie, 10 mm","sku":"SKU-10199"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	200	{"lot":"L2612-D","name":"Bracket, M4","sku":"SKU-10200"}		72	pending	\N	\N	0	2026-12-07T08:39:40.813Z	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N	\N
auth	1	{"lot":"L2612-A","name":"Hinge, M6","sku":"SKU-10001"}		72	done	04A20000000001	station-b/sim:ntag215	1	2026-12-07T08:39:40.813Z	2026-12-07T08:39:40.958Z	2026-12-07T08:39:40.974Z	ntag215	0c5bb97b89f27367fbeb7b9f6a88f25480bde16162c617868394ffb5296fabf5	72	0	valid	2026-12-07T08:39:40.971Z	2026-12-07T08:39:40.974Z	brand	630DCD2966C43366	\N	\N	type2
auth	2	{"lot":"L2612-A","name":"Wing nut, 12 mm","sku":"SKU-10002"}		72	done	04A20000000002	station-b/sim:ntag215	1	2026-12-07T08:39:40.813Z	2026-12-07T08:39:40.986Z	2026-12-07T08:39:40.997Z	ntag215	1db2a9bc3b922a6e707976411653ec95920d1be1ab8947d2c48ccf34ac72ce44	72	0	valid	2026-12-07T08:39:40.995Z	2026-12-07T08:39:40.997Z	brand	630DCD2966C43366	\N	\N	type2
auth	3	{"lot":"L2612-A","name":"Spring, M8","sku":"SKU-10003"}		72	done	04A20000000003	station-b/sim:ntag215	1	2026-12-07T08:39:40.813Z	2026-12-07T08:39:41.004Z	2026-12-07T08:39:41.013Z	ntag215	e45c514d71ace979cfb020eb9dd25007597ae47b046206ae5eb0a539839cf0fb	72	0	valid	2026-12-07T08:39:41.011Z	2026-12-07T08:39:41.013Z	brand	630DCD2966C43366	\N	\N	type2
\.


--
-- Data for Name: seen_counters; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.seen_counters (job, uid, counter, seen_at) FROM stdin;
\.


--
-- Data for Name: stations; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.stations (name, instance, started_at, heartbeat_at, lease_expires) FROM stdin;
station-a	vm:21702:3923253481	2026-12-07 08:39:40.365701+00	2026-12-07 08:39:40.597857+00	2026-12-07 08:39:40.608027+00
station-b	vm:21711:1966726590	2026-12-07 08:39:40.93996+00	2026-12-07 08:39:41.055621+00	2026-12-07 08:39:41.060442+00
\.


--
-- Data for Name: sun_counters; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sun_counters (job, uid, counter, verified_at) FROM stdin;
sun	04D20000000001	1	2026-12-07T08:39:40.476Z
sun	04D20000000002	1	2026-12-07T08:39:40.527Z
sun	04D20000000003	1	2026-12-07T08:39:40.576Z
\.


--
-- Name: attempts_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.attempts_id_seq', 7, true);


--
-- Name: events_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.events_id_seq', 1, false);


--
-- Name: key_changes_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.key_changes_id_seq', 15, true);


--
-- Name: attempts attempts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.attempts
    ADD CONSTRAINT attempts_pkey PRIMARY KEY (id);


--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);


--
-- Name: jobs jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (name);


--
-- Name: key_changes key_changes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.key_changes
    ADD CONSTRAINT key_changes_pkey PRIMARY KEY (id);


--
-- Name: records records_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.records
    ADD CONSTRAINT records_pkey PRIMARY KEY (job, "row");


--
-- Name: seen_counters seen_counters_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seen_counters
    ADD CONSTRAINT seen_counters_pkey PRIMARY KEY (job, uid);


--
-- Name: stations stations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stations
    ADD CONSTRAINT stations_pkey PRIMARY KEY (name);


--
-- Name: sun_counters sun_counters_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sun_counters
    ADD CONSTRAINT sun_counters_pkey PRIMARY KEY (job, uid, counter);


--
-- Name: attempts_by_row; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX attempts_by_row ON public.attempts USING btree (job, "row");


--
-- Name: events_by_job; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_by_job ON public.events USING btree (job, id);


--
-- Name: key_changes_by_tag; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX key_changes_by_tag ON public.key_changes USING btree (job, uid);


--
-- Name: key_changes_one_open; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX key_changes_one_open ON public.key_changes USING btree (job, uid, key_number) WHERE (state = 'intended'::text);


--
-- Name: records_closed; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX records_closed ON public.records USING btree (job, state) WHERE (state = ANY (ARRAY['failed'::text, 'burned'::text]));


--
-- Name: records_done_uid; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX records_done_uid ON public.records USING btree (uid) WHERE (state = 'done'::text);


--
-- Name: records_live_uid; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX records_live_uid ON public.records USING btree (uid, job) WHERE (state = ANY (ARRAY['claimed'::text, 'done'::text]));


--
-- Name: records_open; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX records_open ON public.records USING btree (job, "row", state) WHERE (state = ANY (ARRAY['pending'::text, 'claimed'::text]));


--
-- Name: records records_done_is_final; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER records_done_is_final BEFORE UPDATE OF state, uid ON public.records FOR EACH ROW WHEN (((old.state = 'done'::text) AND ((new.state IS DISTINCT FROM old.state) OR (new.uid IS DISTINCT FROM old.uid)))) EXECUTE FUNCTION public.records_done_is_final();


--
-- Name: records records_done_not_deleted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER records_done_not_deleted BEFORE DELETE ON public.records FOR EACH ROW WHEN ((old.state = 'done'::text)) EXECUTE FUNCTION public.records_done_is_final();


--
-- Name: attempts attempts_job_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.attempts
    ADD CONSTRAINT attempts_job_fkey FOREIGN KEY (job) REFERENCES public.jobs(name);


--
-- Name: records records_job_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.records
    ADD CONSTRAINT records_job_fkey FOREIGN KEY (job) REFERENCES public.jobs(name);


--
-- PostgreSQL database dump complete
--

\unrestrict uR2wJuvHAxsZWRdMCAO3hTkT13Ra3k0i6uScbUNpS6MXtZEDBpquR8DIaHFq2dR

