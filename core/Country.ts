/**
 * ISO 3166-1 countries: ISO-2 or ISO-3 in (any case), ISO-3 inside the engine, ISO-2 where the
 * spec asks for it (catalog entries carry both).
 */
import { Effect, Option, Schema } from "effect"
import { type ApiErrorOf, invalidRequest } from "./ApiError.ts"

const table =
  "AD:AND AE:ARE AF:AFG AG:ATG AI:AIA AL:ALB AM:ARM AO:AGO AQ:ATA AR:ARG AS:ASM AT:AUT AU:AUS AW:ABW AX:ALA " +
  "AZ:AZE BA:BIH BB:BRB BD:BGD BE:BEL BF:BFA BG:BGR BH:BHR BI:BDI BJ:BEN BL:BLM BM:BMU BN:BRN BO:BOL BQ:BES " +
  "BR:BRA BS:BHS BT:BTN BV:BVT BW:BWA BY:BLR BZ:BLZ CA:CAN CC:CCK CD:COD CF:CAF CG:COG CH:CHE CI:CIV CK:COK " +
  "CL:CHL CM:CMR CN:CHN CO:COL CR:CRI CU:CUB CV:CPV CW:CUW CX:CXR CY:CYP CZ:CZE DE:DEU DJ:DJI DK:DNK DM:DMA " +
  "DO:DOM DZ:DZA EC:ECU EE:EST EG:EGY EH:ESH ER:ERI ES:ESP ET:ETH FI:FIN FJ:FJI FK:FLK FM:FSM FO:FRO FR:FRA " +
  "GA:GAB GB:GBR GD:GRD GE:GEO GF:GUF GG:GGY GH:GHA GI:GIB GL:GRL GM:GMB GN:GIN GP:GLP GQ:GNQ GR:GRC GS:SGS " +
  "GT:GTM GU:GUM GW:GNB GY:GUY HK:HKG HM:HMD HN:HND HR:HRV HT:HTI HU:HUN ID:IDN IE:IRL IL:ISR IM:IMN IN:IND " +
  "IO:IOT IQ:IRQ IR:IRN IS:ISL IT:ITA JE:JEY JM:JAM JO:JOR JP:JPN KE:KEN KG:KGZ KH:KHM KI:KIR KM:COM KN:KNA " +
  "KP:PRK KR:KOR KW:KWT KY:CYM KZ:KAZ LA:LAO LB:LBN LC:LCA LI:LIE LK:LKA LR:LBR LS:LSO LT:LTU LU:LUX LV:LVA " +
  "LY:LBY MA:MAR MC:MCO MD:MDA ME:MNE MF:MAF MG:MDG MH:MHL MK:MKD ML:MLI MM:MMR MN:MNG MO:MAC MP:MNP MQ:MTQ " +
  "MR:MRT MS:MSR MT:MLT MU:MUS MV:MDV MW:MWI MX:MEX MY:MYS MZ:MOZ NA:NAM NC:NCL NE:NER NF:NFK NG:NGA NI:NIC " +
  "NL:NLD NO:NOR NP:NPL NR:NRU NU:NIU NZ:NZL OM:OMN PA:PAN PE:PER PF:PYF PG:PNG PH:PHL PK:PAK PL:POL PM:SPM " +
  "PN:PCN PR:PRI PS:PSE PT:PRT PW:PLW PY:PRY QA:QAT RE:REU RO:ROU RS:SRB RU:RUS RW:RWA SA:SAU SB:SLB SC:SYC " +
  "SD:SDN SE:SWE SG:SGP SH:SHN SI:SVN SJ:SJM SK:SVK SL:SLE SM:SMR SN:SEN SO:SOM SR:SUR SS:SSD ST:STP SV:SLV " +
  "SX:SXM SY:SYR SZ:SWZ TC:TCA TD:TCD TF:ATF TG:TGO TH:THA TJ:TJK TK:TKL TL:TLS TM:TKM TN:TUN TO:TON TR:TUR " +
  "TT:TTO TV:TUV TW:TWN TZ:TZA UA:UKR UG:UGA UM:UMI US:USA UY:URY UZ:UZB VA:VAT VC:VCT VE:VEN VG:VGB VI:VIR " +
  "VN:VNM VU:VUT WF:WLF WS:WSM YE:YEM YT:MYT ZA:ZAF ZM:ZMB ZW:ZWE"

const iso2ToIso3 = new Map<string, string>()
const iso3ToIso2 = new Map<string, string>()
for (const pair of table.split(" ")) {
  const [iso2, iso3] = pair.split(":") as [string, string]
  iso2ToIso3.set(iso2, iso3)
  iso3ToIso2.set(iso3, iso2)
}

/** ISO-3 code of a country given as ISO-2 or ISO-3 in any case; none when it is neither. */
export const toIso3 = (input: string): Option.Option<string> => {
  const code = input.trim().toUpperCase()
  if (code.length === 2) return Option.fromNullishOr(iso2ToIso3.get(code))
  if (code.length === 3 && iso3ToIso2.has(code)) return Option.some(code)
  return Option.none()
}

/** ISO-2 code of a country given as ISO-2 or ISO-3 in any case; none when it is neither. */
export const toIso2 = (input: string): Option.Option<string> =>
  Option.flatMap(toIso3(input), (iso3) => Option.fromNullishOr(iso3ToIso2.get(iso3)))

const expected = "an ISO-2 or ISO-3 country code"

/** A country code as a request may carry it: ISO-2 or ISO-3, in any case. */
export const CountryCode = Schema.String.check(Schema.makeFilter((s: string) => Option.isSome(toIso3(s)), { expected }))

/**
 * The ISO-3 code of a request's optional `country` (none given is `undefined`); a code that is
 * no country is the one `invalid_request` every endpoint answers for it, naming the field.
 */
export const requestedCountry = (input: string | undefined): Effect.Effect<string | undefined, ApiErrorOf<"invalid_request">> => {
  if (input === undefined) return Effect.succeed(undefined)
  const iso3 = toIso3(input)
  return Option.isSome(iso3) ? Effect.succeed(iso3.value) : Effect.fail(unknownCountry(input))
}

/** The error for a `country` that is no ISO-2 or ISO-3 code. */
const unknownCountry = (input: string): ApiErrorOf<"invalid_request"> =>
  invalidRequest(`Unknown country '${input}'`, [{ path: "country", message: `Expected ${expected}` }])

/** Number of countries known, for tests. */
export const size = iso2ToIso3.size
