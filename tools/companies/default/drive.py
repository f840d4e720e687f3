"""The drive's part of the default company: its folders and files, shared drives and comments (deterministic)."""

# Text files (.md, .csv, .txt) are authored below; Word, Excel, PDF and PNG files are built
# with ``tools.kernel.documents``. Every file's bytes are kept as a shared blob (``keep``) and the
# record holds the blob id. The facts these files share with mail and calendar are listed in
# ``tools.companies.default.facts``.

from __future__ import annotations

import csv
import functools
import io
import random
import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from typing import Any

from tools.companies.default.documents import (
    ATLAS_RUNBOOK,
    CAMPAIGN_BRIEF,
    POSTMORTEM,
    Q1_BUDGET,
    atlas_runbook_pdf,
)
from tools.companies.default.documents import pdf_of as _pdf
from tools.companies.default.documents import plain_lines as _lines
from tools.companies.default.facts import (
    ATLAS_CUTOVER,
    BOARD_MEETING,
    CONTOSO_CONTRACT,
    CONTOSO_CURRENT,
    CONTOSO_PO,
    CONTOSO_RENEWAL,
    CONTOSO_SIGN_OFF,
    MARKETING_OVERRUN,
    OFFSITE_BOOKING,
    OFFSITE_DATES,
    OFFSITE_PEOPLE,
    OFFSITE_PLACE,
    OFFSITE_VENUE,
)
from tools.companies.shared import keep
from tools.kernel.documents import make_docx, make_png, make_xlsx, mime_type_for

__all__ = ["build"]

_FOLDER_MIME = "application/vnd.google-apps.folder"

# ---- file bodies ------------------------------------------------------------------------------


_Q2_BUDGET = """Department,Category,Q2 proposed (USD),Q1 budget (USD),Change (%),Owner
Engineering,Cloud hosting,162000,186000,-12.9,Ethan Brooks
Engineering,Software licenses,44000,42000,4.8,Liam Chen
Engineering,Contractors,30000,60000,-50.0,Elena Petrova
Marketing,Events,52000,48000,8.3,Zoe Adams
Marketing,Paid media,80000,75000,6.7,Lily Turner
Sales,Travel,40000,36000,11.1,James Okafor
People,Recruiting fees,50000,45000,11.1,Samuel Green
Operations,Facilities,96000,94000,2.1,Victor Alvarez
Operations,IT equipment,20000,28000,-28.6,Leo Hall
Finance,Audit and tax,30000,40000,-25.0,Owen Bell
"""

#: The first Q2 draft (February 27), before Engineering's contractor cut and the Sales travel bump.
_Q2_BUDGET_V1 = """Department,Category,Q2 proposed (USD),Q1 budget (USD),Change (%),Owner
Engineering,Cloud hosting,175000,186000,-5.9,Ethan Brooks
Engineering,Software licenses,42000,42000,0.0,Liam Chen
Engineering,Contractors,60000,60000,0.0,Elena Petrova
Marketing,Events,48000,48000,0.0,Zoe Adams
Marketing,Paid media,75000,75000,0.0,Lily Turner
Sales,Travel,36000,36000,0.0,James Okafor
People,Recruiting fees,45000,45000,0.0,Samuel Green
Operations,Facilities,94000,94000,0.0,Victor Alvarez
Operations,IT equipment,28000,28000,0.0,Leo Hall
Finance,Audit and tax,40000,40000,0.0,Owen Bell
"""

_FY_SUMMARY = """# FY2026 budget summary

Prepared by Marcus Reed, CFO. Approved by the leadership team on January 14, 2026.

## Totals
- Operating budget: $9.8M (up 7% on FY2025)
- Headcount plan: 51 by year end (40 today)
- Capital spend: $410K, mostly the Chicago office fit-out and laptops

## Principles
1. Every department owns its line items and reviews variance monthly with Finance.
2. Overspend above 10% of a line needs a written note to Priya Shah before the next review.
3. Unspent Q1 funds do not roll over to Q2 unless Marcus approves.

## Quarterly review dates
- Q1 review: February 24, 2026
- Q2 review: May 26, 2026
- Q3 review: August 25, 2026
"""

_BUDGET_REVIEW_NOTES = f"""# Q1 budget review - kickoff notes (2026-02-24)

Attendees: Marcus Reed, Priya Shah, Grace Kim, Alex Morgan

## Discussion
- Marketing Events is {MARKETING_OVERRUN} over its Q1 line because the spring launch booth was upsized.
  Zoe Adams has offered to move $10,000 from Paid media to cover most of it.
- Cloud hosting is well under budget thanks to Atlas migration credits; Elena Petrova expects the
  savings to continue after the {ATLAS_CUTOVER} cutover.
- The leadership offsite deposit ($4,000, due once the venue is booked) goes against the Executive line.

## Decisions
- Department submissions for the Q1 review are due March 4; final numbers go to Marcus by March 13.
- Q2 draft budgets are due to Grace Kim by March 13, 2026.
- Contractor spend in Engineering drops by half in Q2.

## Action items
- [ ] Zoe Adams: send the Events overspend note to Priya by March 6
- [ ] Grace Kim: circulate the Q2 budget template
- [ ] Alex Morgan: add the budget review outcome to the March all-hands talking points
"""

_INVOICES_FEB = """Invoice number,Vendor,Amount (USD),Invoice date,Due date,Status,Approver
INV-20388,Proseware Recruiting,19000.00,2026-02-02,2026-03-04,Paid,Priya Shah
INV-20401,Litware Cloud Services,14210.55,2026-02-05,2026-03-07,Paid,Owen Bell
INV-20417,Fabrikam Logistics,12480.00,2026-02-13,2026-03-15,Awaiting approval,Priya Shah
INV-20422,Northwind Office Supply,1892.40,2026-02-16,2026-03-18,Approved,Tomas Rivera
INV-20430,Adatum Security,8750.00,2026-02-19,2026-03-21,Awaiting approval,Owen Bell
INV-20436,Tailspin Travel,4310.75,2026-02-23,2026-03-25,Approved,Tomas Rivera
INV-20441,Lakeside Lodge,4000.00,2026-02-27,2026-03-05,Paid,Marcus Reed
"""

_INVOICES_MAR = """Invoice number,Vendor,Amount (USD),Invoice date,Due date,Status,Approver
INV-20455,Litware Cloud Services,13987.20,2026-03-02,2026-04-01,Received,Owen Bell
INV-20459,Wide World Importers,2640.00,2026-03-03,2026-04-02,Received,Tomas Rivera
INV-20463,Fabrikam Logistics,9125.00,2026-03-04,2026-04-03,Received,Priya Shah
INV-20470,Proseware Recruiting,11500.00,2026-03-05,2026-04-04,Disputed,Owen Bell
"""

_INVOICE_PROCESS = """# Invoice approval process

Owner: Owen Bell. Last reviewed March 2026.

1. Vendors send invoices to ap@northwind.example. Tomas Rivera logs each one in the monthly
   vendor invoices sheet the same day.
2. Every invoice needs a purchase order number. Invoices without one are returned to the vendor.
3. Approval limits:
   - up to $5,000: Accounts Payable (Tomas Rivera)
   - $5,000 to $25,000: Finance Manager (Priya Shah) or Senior Accountant (Owen Bell)
   - above $25,000: CFO (Marcus Reed)
4. Payments run every Tuesday and Friday. Net 30 is our standard term.
5. Disputed invoices are flagged in the sheet with a note and the vendor is told within 3 business days.
"""

_REVENUE_FORECAST = """Month,Bookings forecast (USD),Revenue forecast (USD),Confidence
2026-01,1210000,1015000,Actual
2026-02,1185000,1042000,Actual
2026-03,1320000,1088000,High
2026-04,1290000,1102000,High
2026-05,1350000,1131000,Medium
2026-06,1475000,1167000,Medium
2026-07,1300000,1180000,Low
2026-08,1280000,1192000,Low
2026-09,1420000,1215000,Low
"""

_CASH_FLOW_NOTES = """# Cash flow model notes

Grace Kim - working notes for the 13-week cash model.

- Opening cash at March 2: $6.42M.
- Largest outflows this quarter: payroll (biweekly, ~$610K) and the Chicago lease deposit ($48K, if we renew).
- Largest inflow at stake: the Contoso renewal ($444,960 a year from April 1, if signed by March 31).
- Collections assume DSO of 41 days, down from 44 in Q4.
- Sensitivity: Net 45 for Contoso (a two-week slip in their payments) lowers the week-12 low point to $5.1M.
- Next update: Friday March 13, after the Q2 draft budgets are in.
"""

_EXPENSE_POLICY = """# Travel and expense policy

Effective January 1, 2026. Owner: Priya Shah, Finance.

## Meals and lodging
- Meals: up to $75 per day while travelling, tips included.
- Hotels: up to $260 per night in New York and San Francisco, $210 elsewhere.

## Receipts
- Keep an itemised receipt for every expense over $25.
- Submit expense reports within 30 days of the trip.

## Approvals
- Your manager approves every report.
- Any single expense above $2,500 also needs approval from the CFO, Marcus Reed.

## Not reimbursed
- Business class on flights under 6 hours.
- Alcohol, except at approved client dinners.
"""

_AUDIT_CHECKLIST = """# Audit prep checklist (FY2025 audit)

Fieldwork with our auditors starts April 6, 2026.

- [x] Trial balance exported (Owen)
- [x] Bank reconciliations for December (Tomas)
- [ ] Fixed asset register updated for the Chicago fit-out (Owen)
- [ ] Revenue cut-off testing samples pulled (Grace)
- [ ] Contracts over $100K listed, including Contoso and Litware (Priya)
- [ ] Management representation letter drafted (Marcus)
"""

_ATLAS_PLAN = """# Atlas migration plan

Owner: Liam Chen. Sponsor: Elena Petrova.

## Goal
Move the order and inventory services off the legacy data centre onto the Atlas platform
(managed Kubernetes and Postgres) before the data centre contract ends on May 31, 2026.

## Milestones
| Milestone | Date | Status |
|---|---|---|
| Staging environment live | 2026-01-30 | Done |
| Inventory service migrated | 2026-02-27 | Done |
| Load test at 2x peak | 2026-03-20 | Planned |
| Production cutover | 2026-04-18 (Saturday) | Planned |
| Legacy shutdown | 2026-05-15 | Planned |

## Cutover
- Window: Saturday April 18, 06:00-10:00 Eastern, with a 4-hour fallback window.
- Go/no-go call on Thursday April 16 at 15:00.
- Runbook: see "Atlas cutover runbook" (Mia Thompson).

## Budget
Migration credits from the cloud provider cover $120,000 of hosting through June.
"""


_ATLAS_STATUS = """# Atlas migration status meeting (2026-03-04)

Attendees: Elena Petrova, Liam Chen, Ethan Brooks, Mia Thompson, Alex Morgan

## Updates
- Inventory service has run on Atlas for a week with no incidents; p95 latency down from 310 ms to 190 ms.
- Order service: replication lag peaks above 20 seconds around midday; Sofia Garcia is tuning connection pools.
- The load test moved from March 13 to March 20 because the test environment quota is pending.

## Risks
- Payment provider allow-list must include the new egress IPs before April 18 (owner: Kai).

## Action items
- [ ] Kai Nakamura: send new egress IPs to the payment provider by March 11
- [ ] Sofia Garcia: finish connection pool tuning by March 12
- [ ] Alex Morgan: brief the leadership team on the April 18 date at the March 10 exec staff meeting
"""

_ATLAS_RISKS = """Risk ID,Description,Likelihood,Impact,Owner,Mitigation
ATL-R1,Replication lag during cutover,Medium,High,Sofia Garcia,Final sync with writes paused
ATL-R2,Payment provider blocks new egress IPs,Medium,High,Kai Nakamura,Send IPs three weeks ahead
ATL-R3,Load test environment quota not approved,High,Medium,Mia Thompson,Escalate to Ethan Brooks
ATL-R4,Reporting jobs break on new schema,Low,Medium,Lucas Martin,Dry run reports in staging
ATL-R5,Support not briefed on cutover,Low,Low,Olivia Baker,Briefing on April 14
"""

_SERVICE_CATALOG = """Service,Team,Language,Runs on,On-call rotation,Tier
orders,Commerce,Go,Atlas,Commerce primary,1
inventory,Commerce,Go,Atlas,Commerce primary,1
payments-adapter,Commerce,Java,Legacy,Commerce primary,1
search,Platform,Python,Legacy,Platform,2
notifications,Platform,Python,Atlas,Platform,2
reporting,Data,Python,Legacy,Data,3
customer-portal,Web,TypeScript,Atlas,Web,2
"""

_ADR_014 = """# ADR-014: Event bus selection

Status: Accepted (2026-02-10). Author: Sofia Garcia.

## Context
Orders, inventory and notifications exchange events through database polling, which adds up to
30 seconds of delay and load on the order database.

## Decision
Use a managed Kafka-compatible event bus on Atlas, one topic per aggregate (orders, stock, customers).

## Consequences
- Consumers must be idempotent; every event carries an event_id.
- Reporting reads from the bus instead of nightly dumps after Q2.
"""

_ADR_015 = """# ADR-015: Move to Postgres 16

Status: Proposed. Author: Lucas Martin.

## Context
The reporting and orders databases run Postgres 12, which reached the end of community support in
November 2024. Atlas offers Postgres 16 as a managed service.

## Proposal
Create Postgres 16 replicas on Atlas, switch reporting first (April), orders with the Atlas cutover.

## Open questions
- Do the reporting extensions (pg_partman, pg_cron) work on the managed service?
- Who owns the compatibility test plan? Proposed: Chloe Nguyen.
"""

_ONCALL = """Week starting,Primary,Secondary,Escalation manager
2026-01-05,Mia Thompson,Noah Williams,Ethan Brooks
2026-01-12,Noah Williams,Ava Johnson,Liam Chen
2026-01-19,Ava Johnson,Sofia Garcia,Liam Chen
2026-01-26,Sofia Garcia,Lucas Martin,Ethan Brooks
2026-02-02,Lucas Martin,Mia Thompson,Ethan Brooks
2026-02-09,Mia Thompson,Chloe Nguyen,Ethan Brooks
2026-02-16,Chloe Nguyen,Noah Williams,Liam Chen
2026-02-23,Noah Williams,Ava Johnson,Liam Chen
2026-03-02,Ava Johnson,Sofia Garcia,Liam Chen
2026-03-09,Sofia Garcia,Mia Thompson,Ethan Brooks
2026-03-16,Lucas Martin,Noah Williams,Ethan Brooks
2026-03-23,Mia Thompson,Ava Johnson,Liam Chen
2026-03-30,Chloe Nguyen,Lucas Martin,Liam Chen
"""


_ACCESS_REVIEW = """System,User,Role,Reviewer,Decision,Date
GitHub,noah.williams,Maintainer,Liam Chen,Keep,2026-02-20
GitHub,former.contractor,Write,Liam Chen,Remove,2026-02-20
AWS production,mia.thompson,Admin,Ethan Brooks,Keep,2026-02-21
AWS production,lucas.martin,Admin,Ethan Brooks,Reduce to read-only,2026-02-21
Payroll system,ella.moore,Editor,Nora Patel,Keep,2026-02-23
Finance ERP,grace.kim,Analyst,Priya Shah,Keep,2026-02-23
Finance ERP,daniel.wright,Analyst,Priya Shah,Remove,2026-02-24
"""

_SECURITY_POLICY = """# Information security policy

Owner: Kai Nakamura. Approved by Elena Petrova, January 2026.

- Multi-factor authentication is required for email, the drive, GitHub and every production system.
- Passwords: at least 14 characters, kept in the company password manager.
- Laptops must have disk encryption on and lock after 5 minutes idle.
- Report lost devices to Leo Hall (IT) within 1 hour.
- Access is reviewed every quarter; the next review closes May 22, 2026.
- Customer data may not be copied to personal devices or personal cloud storage.
"""

_ENG_NOTES = """# Engineering leads meeting (2026-03-05)

Attendees: Elena Petrova, Liam Chen, Ethan Brooks, Kai Nakamura

- Atlas: cutover date April 18 confirmed; load test March 20.
- Hiring: two Senior Software Engineer offers out; Data Engineer role opens April 1.
- Incident review: INC-3021 follow-ups on track except automatic certificate issuance.
- Budget: Q2 contractor spend halves; Elena to confirm Q2 numbers with Grace Kim by March 13.

Action items
- [ ] Ethan Brooks: get the load test environment quota approved by March 12
- [ ] Liam Chen: share the cutover announcement draft with Alex Morgan
"""

_ENG_HIRING = """# Engineering hiring plan 2026

| Role | Team | Target start | Status |
|---|---|---|---|
| Senior Software Engineer (REQ-1042) | Commerce | 2026-04-13 | Offers out |
| Senior Software Engineer (REQ-1043) | Platform | 2026-05-04 | Interviewing |
| Data Engineer (REQ-1051) | Data | 2026-07-06 | Opens April 1 |
| Security Engineer (REQ-1055) | Security | 2026-09-01 | Planned |

Interview loop owner: Samuel Green (People). Hiring managers: Liam Chen and Ethan Brooks.
"""


_CAMPAIGN_CALENDAR = """Week,Campaign,Channel,Owner,Status
2026-03-30,Spring launch teaser,Email,Henry Scott,Drafting
2026-04-06,Spring launch,Paid search,Lily Turner,Planned
2026-04-06,Spring launch,LinkedIn,Lily Turner,Planned
2026-04-13,Contoso customer story,Blog,Henry Scott,In review
2026-04-13,Live inventory webinar,Webinar,Henry Scott,Planned
2026-04-20,Supply Chain Summit,Event,Zoe Adams,Booked
2026-05-04,Partner newsletter,Email,Henry Scott,Planned
2026-05-18,Summer pricing promo,Paid search,Lily Turner,Idea
"""

_WEBINAR_PLAN = """# Webinar series plan

Owner: Henry Scott.

1. April 15 - "Live inventory in practice" with Contoso's VP of Operations. Host: Lily Turner.
2. May 13 - "Cutting stockouts by a third" with a Litware data specialist. Host: Henry Scott.
3. June 10 - "Planning peak season" customer panel. Host: Zoe Adams.

Registration pages go live three weeks before each session. Recordings go on the resources page
within two business days.
"""

_BRAND_VOICE = """# Brand voice guide

Owner: Jack Hughes.

- Plain words over jargon: say "orders", not "order lifecycle events".
- Confident, never loud: no exclamation marks in headlines.
- Write to one reader ("you"), not to "users".
- Numbers as digits, with units: "3 days", "$40K".
- Product name is always "Northwind Live"; never "NW Live".
"""

_LOGO_NOTES = """Logo usage notes (Jack Hughes)

- Minimum clear space around the logo: the height of the letter N.
- Primary colour: Northwind Navy #1B2A49. Accent: Harbor Teal #2A9D8F.
- Do not place the logo on photos without the dark overlay.
- Files for print and web are in the Brand folder request form; ask Jack for vector versions.
"""

_EDITORIAL_CALENDAR = """Publish date,Title,Author,Status
2026-03-03,Five signs your inventory counts are wrong,Henry Scott,Published
2026-03-17,What we learned moving to Atlas,Sofia Garcia,Drafting
2026-03-24,How we cut month-end close to 4 days,Henry Scott,In review
2026-03-31,How Contoso cut stockouts by 28%,Henry Scott,In review
2026-04-14,Spring launch: Northwind Live inventory view,Lily Turner,Planned
2026-04-28,Planning for peak season in April,Henry Scott,Idea
"""

_CONTOSO_STORY = """# Customer story: Contoso (draft)

Contoso Ltd runs 14 warehouses across the Midwest. Since moving to Northwind Live in 2024 they have:
- cut stockouts by 28%,
- reduced manual counts from weekly to monthly,
- shortened order-to-ship time from 2.4 days to 1.6 days.

Quote (approved by Contoso PR on March 2): "We finally trust the number on the screen."
- Dana Li, VP of Operations, Contoso

Status: waiting for Contoso's legal sign-off on the logo use. Contact: Ryan Cooper.
"""

_MKT_BUDGET = """Month,Channel,Planned (USD),Spent (USD)
2026-01,Paid media,25000,16400
2026-01,Events,8000,7900
2026-01,Content production,6000,3800
2026-02,Paid media,25000,18100
2026-02,Events,20000,38350
2026-02,Content production,6000,4100
2026-03,Paid media,25000,17800
2026-03,Events,20000,15000
2026-03,Content production,6000,4000
"""

_MKT_NOTES = """# Marketing sync (2026-03-03)

Attendees: Zoe Adams, Henry Scott, Lily Turner, Jack Hughes

- Spring launch on track for April 7; landing page copy due March 20 (Lily).
- Events overspend: Zoe to explain the $13,250 variance to Finance by March 6.
- Supply Chain Summit booth booked; Jack owns booth design, proofs due March 27.
- Contoso story waits on their legal team; Henry to follow up with Ryan Cooper.
"""

_ONBOARDING_CHECKLIST = """# New hire onboarding checklist

Owner: Ella Moore (People Operations). Use one copy per new hire.

## Before day 1
- [ ] Offer letter signed and background check cleared (Samuel Green)
- [ ] Laptop ordered at least 10 business days before the start date (Leo Hall)
- [ ] Accounts created: email, drive, chat, HR system (Leo Hall)
- [ ] Building badge requested from Ruby Walker (New York) or the Chicago front desk
- [ ] Onboarding buddy picked by the hiring manager

## Day 1
- [ ] Welcome breakfast at 9:30 with the team
- [ ] IT setup session at 11:00 (see the IT setup checklist)
- [ ] Benefits enrolment walkthrough with Ella Moore at 14:00

## First week
- [ ] Read the information security policy and the code of conduct
- [ ] Complete the security awareness course in the HR system
- [ ] 1:1 with manager to agree 30/60/90-day goals

## First month
- [ ] Enrol in benefits (deadline: 30 days from start)
- [ ] Meet at least five people outside your team
"""

_IT_SETUP = """IT setup checklist (Leo Hall)

1. Sign in to the laptop with the temporary password from your welcome email.
2. Set a new password (14+ characters) and turn on multi-factor authentication.
3. Install the password manager and the VPN client from the self-service portal.
4. Join chat channels: #general, #it-help and your team channel.
5. Check that disk encryption shows "On" in system settings.
Questions: it-help@northwind.example or extension 4410.
"""

_WELCOME_PACKET = """# Welcome to Northwind Traders

We help distributors know where every order is, every hour.

- Offices: New York (HQ, floors 2-4, with the Hudson Room and the Boardroom on 12), Chicago
  (225 W Wacker Dr, 11th floor), San Francisco; many of us work remotely.
- Core hours: 10:00-16:00 in your time zone. Anchor days in the office: Tuesday and Thursday.
- All-hands: once a month on a Thursday at 16:00 Eastern, in the Main Hall and on video.
- Your first point of contact for anything: your onboarding buddy, then Ella Moore.
"""

_REMOTE_POLICY = """# Remote and hybrid work policy

Owner: Nora Patel, Head of People. Effective January 1, 2026; replaces the 2023 policy.

## Who it covers
All employees. Contractors follow the terms of their agreement.

## Office days
- Employees within 50 miles of an office work there on the anchor days, Tuesday and Thursday.
- Fully remote roles are marked "Remote" in the directory and need VP approval.

## Equipment and stipend
- Remote and hybrid employees get a home office stipend of $600 per calendar year.
- Claims go through the expense system with receipts, under "Home office".

## Working from another country
- Up to 20 working days per year, with manager approval at least 2 weeks ahead.

## Questions
Contact Ella Moore (People Operations) or Nora Patel.
"""

_PARENTAL_LEAVE = """# Parental leave policy

Owner: Nora Patel. Effective January 1, 2026.

- 16 weeks of fully paid leave for every new parent, including adoption and foster care.
- Leave can be taken in up to two blocks within 12 months of the birth or placement.
- A phased return of 4 weeks at 60% hours and full pay is available.
- Tell your manager and People Operations at least 8 weeks before the planned start where possible.
"""

_CODE_OF_CONDUCT = """# Code of conduct

1. Treat colleagues, customers and partners with respect.
2. Avoid conflicts of interest; declare outside work and gifts over $100 to Legal (Isaac King).
3. Protect company and customer information.
4. Speak up: report concerns to your manager, People, or the confidential line at ethics@northwind.example.
5. Retaliation against anyone who raises a concern in good faith is not tolerated.
"""

_OPEN_ROLES = """Requisition,Title,Department,Hiring manager,Location,Status,Opened
REQ-1042,Senior Software Engineer,Engineering,Liam Chen,Boston,Offer out,2026-01-12
REQ-1043,Senior Software Engineer,Engineering,Ethan Brooks,San Francisco,Interviewing,2026-01-19
REQ-1045,Chief of Staff Associate,Executive,Alex Morgan,New York,Final interviews,2026-01-26
REQ-1046,Operations Analyst,Operations,Victor Alvarez,New York,Final interviews,2026-02-09
REQ-1047,Account Executive,Sales,James Okafor,Chicago,Interviewing,2026-02-02
REQ-1048,Staff Product Designer,Marketing,Zoe Adams,San Francisco,Offer being prepared,2026-01-20
REQ-1049,Customer Success Manager,Customer Success,Olivia Baker,Remote,Sourcing,2026-02-16
REQ-1051,Data Engineer,Engineering,Ethan Brooks,Remote,Opens April 1,2026-03-02
REQ-1053,Accounts Receivable Specialist,Finance,Priya Shah,Chicago,Sourcing,2026-02-16
"""

_INTERVIEW_LOOP = """# Interview loop: Senior Software Engineer (REQ-1042, REQ-1043)

Coordinator: Samuel Green.

| Stage | Interviewer | Length |
|---|---|---|
| Recruiter screen | Samuel Green | 30 min |
| Technical screen | Sofia Garcia or Noah Williams | 60 min |
| System design | Liam Chen or Ethan Brooks, with a second engineer | 60 min |
| Pair programming | Ava Johnson | 90 min |
| Values interview | Elena Petrova | 45 min |

Feedback is due in the HR system within 24 hours. The debrief is held within 2 business days.
"""

_PIPELINE = """Candidate,Requisition,Stage,Next step,Date
Jordan Blake,REQ-1042,Offer,Offer expires,2026-03-12
Priyanka Rao,REQ-1042,Offer,Offer expires,2026-03-13
Rita Okoye,REQ-1043,System design,Interview with Ethan Brooks and Lucas Martin,2026-03-10
Hana Sato,REQ-1043,Technical screen,Interview with Noah Williams,2026-03-10
Marco Silva,REQ-1043,System design,Interview with Ethan Brooks,2026-03-11
Samira Haddad,REQ-1045,Final,Debrief with Alex Morgan and Nora Patel,2026-03-09
Marco Bianchi,REQ-1045,Final,Case exercise with Alex Morgan and Elena Petrova,2026-03-12
Nina Kowalski,REQ-1046,Final,Interview with Victor Alvarez and Alex Morgan,2026-03-16
Tom Becker,REQ-1047,Hiring manager interview,Interview with James Okafor and Benjamin Clark,2026-03-11
Chris Obi,REQ-1047,Final,Meet James Okafor,2026-03-12
Camille Dubois,REQ-1048,Offer,Offer approval from Alex Morgan and Dana Whitfield,2026-03-10
Lena Fischer,REQ-1049,Recruiter screen,Call with Samuel Green,2026-03-10
"""

_PERF_CYCLE = """# Performance review cycle 2026

Owner: Nora Patel.

- Self reviews open April 1 and close April 15.
- Manager reviews due May 1.
- Calibration sessions by department: May 4-8.
- Conversations with each employee: by May 22.
- Pay changes take effect with the June 15 payroll.
"""

_VENDOR_LIST = """Vendor,Category,Contact,Email,Contract end,Annual value (USD),Internal owner
Contoso Ltd,Warehouse software partner,Dana Li,dana.li@contoso.example,2026-03-31,432000,Maya Young
Fabrikam Logistics,Freight and courier,Omar Haddad,omar.haddad@fabrikam.example,2026-09-30,148000,Maya Young
Litware Cloud Services,Cloud hosting,Rachel Stone,rachel.stone@litware.example,2027-01-31,612000,Ethan Brooks
Adatum Security,Penetration testing,Kim Lau,kim.lau@adatum.example,2026-06-30,35000,Kai Nakamura
Northwind Office Supply,Office supplies,Front desk,orders@officesupply.example,2026-12-31,22000,Ruby Walker
Tailspin Travel,Corporate travel,Ben Ortiz,ben.ortiz@tailspin.example,2026-08-31,18000,Ruby Walker
Proseware Recruiting,Recruiting,Alicia Gomez,alicia.gomez@proseware.example,2026-05-31,60000,Samuel Green
Wide World Importers,Event merchandise,Sam Patel,sam.patel@wideworld.example,2026-04-30,15000,Zoe Adams
Lakeside Lodge,Offsite venue,Events desk,events@lakesidelodge.example,2026-04-24,38500,Alex Morgan
"""

_CONTOSO_NOTES = f"""# Contoso renewal notes

Owner: Maya Young (Procurement), who owns the contract and the renewal paperwork.
Commercial lead: Isabella Rossi (Sales). Contract: {CONTOSO_CONTRACT}, Contoso Ltd warehouse software partnership.

- Current contract: {CONTOSO_CURRENT} a year, ends March 31, 2026. The renewal must be signed by then to avoid a lapse.
- Contoso first asked to keep the price flat for a 3-year term (call on March 3).
- Our proposal (v3, March 4): 3 years from April 1 at {CONTOSO_RENEWAL} a year (+3%), fixed for years 2 and 3.
- Contoso wants Net 45 instead of our standard Net 30; Marcus Reed decides.
- Contoso's purchase order for the renewal: {CONTOSO_PO}.
- Pricing sign-off from Alex Morgan, James Okafor and Marcus Reed: by {CONTOSO_SIGN_OFF}.
- Legal review: Isaac King has the redlines (review meeting March 10); comments due March 16.
"""

_VENDOR_FORM = """Vendor onboarding form (Procurement)

Send to procurement@northwind.example with:
1. Legal company name and address
2. Tax form (W-9 for US vendors)
3. Bank details on company letterhead
4. Named contact for invoices
5. Certificate of insurance if the vendor works on site
New vendors are set up within 5 business days after all documents arrive.
"""

_LEASE_NOTES = """# Chicago office lease notes

Owner: Ruby Walker.

- Current lease: 11th floor, 225 W Wacker Dr (9,800 sq ft); ends June 30, 2026.
- Option A, renew: 5 years at $46 per square foot a year; deposit $48,000.
- Option B, move: 220 W Kinzie St, 8,600 sq ft at $41 per square foot for 7 years, room for 45 desks;
  about $180,000 to move.
- Over five years A costs $2,254,000 and B $1,943,000 with the move, about $311,000 less.
- The landlord needs our answer on renewal by March 31. Decision: Victor Alvarez and Marcus Reed.
"""

_ROOMS = """Room,Office,Floor,Capacity,Video,Notes
Main Hall,New York,2,60,Yes,All-hands and large events
Room 2A,New York,2,6,Yes,Interviews and 1:1s
Room 3C,New York,3,8,Yes,
Room 4B,New York,4,10,Yes,Interviews have priority
Harbor Room,New York,4,10,Yes,Customer meetings
Studio B,New York,4,6,No,Photo and video studio
Hudson Room,New York,12,12,Yes,Exec staff meetings; book through Amelia Ward
Boardroom,New York,12,16,Yes,Board meetings and auditors; book through Amelia Ward
Lakeview,Chicago,11,10,Yes,
Wacker,Chicago,11,4,Yes,
Golden Gate,San Francisco,3,8,Yes,
Presidio,San Francisco,3,4,No,
"""

_LAPTOPS = """Asset tag,Model,Assigned to,Purchased,Status
NW-LT-0412,MacBook Pro 14,alex.morgan,2024-06-03,In use
NW-LT-0433,MacBook Pro 14,sofia.garcia,2024-08-19,In use
NW-LT-0458,ThinkPad X1 Carbon,tomas.rivera,2025-01-13,In use
NW-LT-0471,MacBook Air 13,harper.lewis,2025-04-07,In use
NW-LT-0502,MacBook Pro 16,lucas.martin,2025-09-22,In use
NW-LT-0517,MacBook Pro 14,,2026-02-26,Ready for new hire (REQ-1042)
NW-LT-0518,MacBook Pro 14,,2026-02-26,Ready for new hire (REQ-1042)
NW-LT-0390,MacBook Pro 13,,2023-03-14,To be recycled
"""

_LICENSES = """Software,Seats,Seats used,Renewal date,Annual cost (USD),Owner
Figma,8,7,2026-05-01,5760,Jack Hughes
GitHub Enterprise,30,24,2026-10-15,7560,Liam Chen
Zoom,45,41,2026-04-12,8100,Leo Hall
Password manager,50,41,2026-07-01,2400,Kai Nakamura
CRM,12,11,2026-03-28,21600,Daniel Wright
"""

_OPS_NOTES = """# Operations weekly (2026-03-06)

Attendees: Victor Alvarez, Ruby Walker, Leo Hall, Maya Young

- Contoso renewal: proposal at +3% ($444,960 a year) is with Contoso; pricing sign-off due March 12 (Maya).
- Chicago lease: Ruby checking the Kinzie St floor plan for 45 desks; Victor and Marcus decide by March 31.
- IT: two laptops ready for the REQ-1042 hires; CRM licenses renew March 28 (11 of 12 seats used).
- Offsite logistics: Ruby booking the coach from Grand Central to Lakeside Lodge for April 22.
"""

_OFFSITE_AGENDA = f"""# Leadership offsite 2026 - agenda draft

Dates: Wednesday April 22 to Friday April 24, 2026.
Venue: {OFFSITE_VENUE}, {OFFSITE_PLACE} (booking {OFFSITE_BOOKING}; deposit $4,000 paid).
Budget: $38,500 for {OFFSITE_PEOPLE} people, rooms, meals and AV included. Owner: Alex Morgan.

## Wednesday April 22
- 10:30 Coach leaves Grand Central
- 13:00 Lunch and welcome (Dana Whitfield)
- 14:30 2026 strategy: where we win (Dana)
- 17:00 Free time; dinner at 19:00

## Thursday April 23
- 09:00 Financial plan and Q2 budget (Marcus Reed)
- 11:00 Atlas migration and platform roadmap (Elena Petrova)
- 14:00 Go-to-market for Northwind Live (James Okafor, Zoe Adams)
- 16:00 People plan: hiring and the review cycle (Nora Patel)

## Friday April 24
- 09:00 Decisions and owners (Alex Morgan)
- 12:30 Lunch
- 14:30 Coach back to Grand Central (arrives about 16:00)

Open questions: dietary needs (Amelia collecting by April 3); Olivia Baker to confirm a customer health session.
"""

#: The agenda's first version (March 2), before the Thursday sessions had owners.
_OFFSITE_AGENDA_V1 = f"""# Leadership offsite 2026 - agenda draft

Dates: Wednesday April 22 to Friday April 24, 2026.
Venue: {OFFSITE_VENUE}, {OFFSITE_PLACE} (booking {OFFSITE_BOOKING}).
Owner: Alex Morgan.

## Wednesday April 22
- 10:30 Coach leaves Grand Central
- 13:00 Lunch and welcome (Dana Whitfield)
- 14:30 Strategy session (Dana)

## Thursday April 23
- Sessions to be confirmed: finance, platform, go-to-market, people

## Friday April 24
- 09:00 Decisions and owners (Alex Morgan)
- 14:30 Coach back to Grand Central
"""

_VENUE_OPTIONS = """Venue,Location,Nights,Price per person (USD),Capacity,Meeting room,Notes
Lakeside Lodge,"Cold Spring, NY",2,3500,30,Yes,Chosen and booked February 27 (NWT-4471); 75 minutes from Grand Central
Harbor Inn,"Newport, RI",2,3900,24,Yes,No direct train
Pine Ridge Retreat,"Lake Placid, NY",2,3300,40,Yes,5 hours travel
Mill River Conference Center,"Stamford, CT",2,3100,80,Yes,Feels like an office; last year's venue
"""

_ATTENDEES = """Name,Email,Role,Dietary needs,Confirmed
Dana Whitfield,dana.whitfield@northwind.example,CEO,,Yes
Alex Morgan,alex.morgan@northwind.example,Chief of Staff,,Yes
Marcus Reed,marcus.reed@northwind.example,CFO,,Yes
Elena Petrova,elena.petrova@northwind.example,VP Engineering,Vegetarian,Yes
James Okafor,james.okafor@northwind.example,VP Sales,,Yes
Zoe Adams,zoe.adams@northwind.example,Head of Marketing,Gluten free,Yes
Nora Patel,nora.patel@northwind.example,Head of People,,Yes
Victor Alvarez,victor.alvarez@northwind.example,Head of Operations,,No reply
Isaac King,isaac.king@northwind.example,General Counsel,,Yes
Olivia Baker,olivia.baker@northwind.example,Head of Customer Success,Vegan,No reply
Amelia Ward,amelia.ward@northwind.example,Executive Assistant,,Yes
"""

_LEADERSHIP_0224 = f"""# Leadership meeting (2026-02-24)

Attendees: Dana Whitfield, Marcus Reed, Elena Petrova, James Okafor, Zoe Adams, Nora Patel,
Victor Alvarez, Isaac King, Olivia Baker, Alex Morgan. Notes: Amelia Ward.

- Q1 forecast: bookings on plan; February revenue tracking to $1.04M.
- Offsite set for Wednesday to Friday, {OFFSITE_DATES}; the board meeting moves to {BOARD_MEETING}. Ruby to
  propose venues this week. Alex owns the agenda.
- Contoso renewal: Maya Young owns the renewal paperwork, Isabella Rossi leads the commercial talks,
  Isaac reviewing terms.
- INC-3021 outage: Olivia to confirm apology credits went to all 37 affected accounts.

Action items
- [ ] Alex Morgan: first offsite agenda draft by March 6
- [ ] Marcus Reed: Q1 budget review outcome to the group
"""

_LEADERSHIP_0303 = """# Leadership meeting (2026-03-03)

Attendees: Dana Whitfield, Marcus Reed, Elena Petrova, James Okafor, Zoe Adams, Nora Patel,
Victor Alvarez, Alex Morgan. Notes: Amelia Ward.

- Atlas cutover set for Saturday April 18; Elena will brief customers through Olivia's team.
- Hiring: two engineering offers out (REQ-1042); Sales AE role interviewing.
- March all-hands on Thursday March 12 at 16:00 Eastern in the Main Hall and on video.
- Board meeting moved to April 29; deck outline owned by Dana and Alex.

Action items
- [ ] Alex Morgan: all-hands talking points to Dana by March 9
- [ ] Nora Patel: share the remote work policy FAQ before the all-hands
"""

_BOARD_OUTLINE = """# Board deck outline - Q1 2026

Board meeting: April 29, 2026 (moved from April 22 because of the offsite).

1. Highlights and lowlights (Dana)
2. Financials: Q1 actuals, FY2026 outlook (Marcus)
3. Product and Atlas migration status (Elena)
4. Pipeline and the Contoso renewal (James)
5. People: headcount 40 -> 51 plan (Nora)
6. Asks of the board
"""

_BOARD_MINUTES = """# Board meeting minutes (2026-01-28)

Present: Dana Whitfield, Marcus Reed, three independent directors. Minutes: Amelia Ward.

- FY2026 budget of $9.8M approved.
- The board asked for a monthly cash update while the Contoso renewal is open.
- Next meeting: April 22, 2026 (later moved to April 29).
"""

_ALL_HANDS = """# March all-hands talking points (draft)

Thursday March 12, 16:00 Eastern, Main Hall and video. Host: Dana Whitfield.

1. Welcome our newest colleagues and the two engineers joining in April.
2. Q1 so far: bookings on plan; the budget review started on February 24, final numbers by March 13.
3. Atlas: cutover on Saturday April 18; what customers will notice (nothing, we hope).
4. Spring launch on April 7 and the Supply Chain Summit in Chicago, April 20-21.
5. Remote work policy reminder: anchor days Tuesday and Thursday; $600 home office stipend.
6. Questions.
"""

_OKRS = """# Company OKRs 2026

Owner: Dana Whitfield.

## Objective 1: Make Northwind Live the default for mid-size distributors
- KR1: 60 new customers (12 in Q1)
- KR2: Net revenue retention of 112%
- KR3: Renew Contoso for 3 years

## Objective 2: Run on a modern platform
- KR1: Atlas migration complete by May 31
- KR2: Checkout availability of 99.95%
- KR3: Hosting cost per order down 15%

## Objective 3: Grow a great team
- KR1: Hire 11 people, all onboarded within 30 days
- KR2: Engagement score of 80 or more in the May survey
"""

_PRIORITIES = """# Chief of staff - weekly priorities (week of March 9)

1. Finish the offsite agenda and send it to Dana by Wednesday.
2. All-hands talking points to Dana today.
3. Follow up with Zoe on the Events overspend note for Finance.
4. Prepare the board deck outline with Dana (board meeting April 29).
5. Contoso renewal: pricing sign-off from James, Marcus and me by Thursday March 12.
"""

_ONE_ON_ONE = """# 1:1 notes - Dana Whitfield

## 2026-03-02
- Dana wants the offsite to end with named owners for every decision.
- Ask Olivia to present customer health at the offsite.
- Dana is out March 19-20 (family).

## 2026-02-23
- Discussed Contoso renewal risk; Dana prefers a 3-year deal even if we have to hold the price flat.
- Board meeting moving to April 29.
"""

_READING_LIST = """Reading list
- High Output Management - Andrew Grove
- The Effective Executive - Peter Drucker
- Working Backwards - Colin Bryar and Bill Carr
- An Elegant Puzzle - Will Larson
"""

_OFFSITE_2025 = """# Leadership offsite 2025 - agenda

Dates: May 14-15, 2025. Venue: Mill River Conference Center, Stamford, CT.
Mostly replaced by the 2026 agenda; kept for reference.
"""

_Q4_DRAFT = """Department,Q4 2025 draft (USD)
Engineering,265000
Marketing,118000
Sales,61000
Operations,120000
"""

_UNTITLED = """call Ruby re coach booking
"""

_CONTOSO_PROPOSAL = f"""# Contoso renewal proposal

Prepared by James Okafor and Isabella Rossi for Contoso Ltd. Draft v3, March 4, 2026.

- Renews contract {CONTOSO_CONTRACT}, which ends March 31, 2026.
- Term: 3 years from April 1, 2026.
- Annual fee: {CONTOSO_RENEWAL} (3% increase on the current {CONTOSO_CURRENT}), fixed for years 2 and 3.
- Payment terms: Net 30 (Contoso has asked for Net 45).
- Adds: live inventory view for all 14 warehouses, quarterly business reviews.
- Signature needed by March 31, 2026. Contoso's purchase order: {CONTOSO_PO}.
"""

_PIPELINE_Q1 = """Account,Stage,Amount (USD),Close date,Owner
Contoso Ltd,Renewal,444960,2026-03-31,Isabella Rossi
Fabrikam Inc,Proposal,96000,2026-04-30,Benjamin Clark
Tailspin Toys,Negotiation,58000,2026-03-20,Isabella Rossi
Alpine Ski House,Discovery,42000,2026-04-30,Harper Lewis
Coho Winery,Proposal,23000,2026-03-25,Benjamin Clark
Woodgrove Bank,Qualified,120000,2026-05-29,Isabella Rossi
"""

_HEALTH_SCORES = """Account,Health score,Trend,Renewal date,CSM
Contoso Ltd,72,Down,2026-03-31,Ryan Cooper
Fabrikam Inc,88,Up,2026-11-30,Emma Foster
Tailspin Toys,64,Down,2026-07-31,Ryan Cooper
Litware Inc,91,Flat,2026-09-30,Emma Foster
Adventure Works,55,Down,2026-05-31,Ryan Cooper
"""

_NDA_TEMPLATE = """# Mutual non-disclosure agreement (template)

Owner: Isaac King, General Counsel. Version 2026-01.

1. Each party keeps the other's confidential information secret for 3 years from disclosure.
2. Confidential information may be shared only with employees and advisers who need it.
3. Governing law: New York.
Use this template unchanged for vendors and prospects; send any edits to Hannah Wood.
"""

# ---- real documents (.xlsx, .docx, .pdf, .png), built once and kept as shared blobs --------------


def _csv(text: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(text)) if row]


def _num(value: str) -> Any:
    try:
        return int(value)
    except ValueError:
        try:
            return float(value)
        except ValueError:
            return value


@functools.cache
def _q1_budget_xlsx() -> bytes:
    """The Q1 budget workbook: a Summary sheet and one sheet per department (same numbers as ``Q1_BUDGET``)."""
    rows = _csv(Q1_BUDGET)[1:]
    depts: dict[str, list[list[Any]]] = {}
    for dept, cat, budget, actual, variance, notes in rows:
        depts.setdefault(dept, []).append([cat, int(budget), int(actual), int(variance), notes])
    head = ["Category", "Q1 budget (USD)", "Actual to date (USD)", "Variance (USD)", "Notes"]
    summary: list[list[Any]] = [["Department", "Q1 budget (USD)", "Actual to date (USD)", "Variance (USD)"]]
    for dept, lines in depts.items():
        summary.append([dept, *(sum(line[i] for line in lines) for i in (1, 2, 3))])
    summary.append(["Total", *(sum(r[i] for r in summary[1:]) for i in (1, 2, 3))])
    sheets: dict[str, list[list[Any]]] = {"Summary": summary}
    sheets.update({dept: [head, *lines] for dept, lines in depts.items()})
    return make_xlsx(sheets)


@functools.cache
def _revenue_forecast_xlsx() -> bytes:
    """Monthly bookings and revenue forecast with its assumptions."""
    monthly = [[_num(v) for v in row] for row in _csv(_REVENUE_FORECAST)]
    assumptions = [
        ["Assumption", "Value"],
        ["Contoso renewal", f"Signed by March 31 at {CONTOSO_RENEWAL} a year from April 1"],
        ["Days sales outstanding", "41 days (44 in Q4 2025)"],
        ["New customers", "12 in Q1, 16 per quarter after"],
        ["Prepared by", "Grace Kim, March 3, 2026"],
    ]
    return make_xlsx({"Monthly": monthly, "Assumptions": assumptions})


def _proposal(version: str, fee: str, change: str, extra: str) -> bytes:
    return make_docx(
        "Contoso renewal proposal",
        [
            f"Prepared by James Okafor and Isabella Rossi for Contoso Ltd. {version}.",
            f"Renews contract {CONTOSO_CONTRACT}, which ends March 31, 2026.",
            "Term: 3 years from April 1, 2026.",
            f"Annual fee: {fee} ({change}).",
            "Payment terms: Net 30 (Contoso has asked for Net 45).",
            extra,
            f"Signature needed by March 31, 2026. Contoso's purchase order: {CONTOSO_PO}.",
        ],
    )


@functools.cache
def _contoso_proposal_docx(version: int = 3) -> bytes:
    """The renewal proposal as it read in each of its three drafts (3 is the current one)."""
    if version == 1:
        return _proposal("Draft v1, February 27, 2026", CONTOSO_CURRENT, "flat, as Contoso asked on the first call",
                         "Adds: quarterly business reviews.")  # fmt: skip
    if version == 2:
        return _proposal("Draft v2, March 2, 2026", "$453,600", "5% increase on the current $432,000",
                         "Adds: live inventory view for all 14 warehouses, quarterly business reviews.")  # fmt: skip
    return _proposal(
        "Draft v3, March 4, 2026",
        CONTOSO_RENEWAL,
        f"3% increase on the current {CONTOSO_CURRENT}, fixed for years 2 and 3",
        "Adds: live inventory view for all 14 warehouses, quarterly business reviews.",
    )


@functools.cache
def _nda_docx() -> bytes:
    """The mutual NDA template as a Word document."""
    return make_docx("Mutual non-disclosure agreement (template)", [ln for ln in _lines(_NDA_TEMPLATE) if ln])


@functools.cache
def _board_minutes_pdf() -> bytes:
    """The January board minutes, signed."""
    return _pdf(
        "Board meeting minutes (2026-01-28)",
        [*_lines(_BOARD_MINUTES), "", "Approved and signed: Dana Whitfield, Chair, February 2, 2026."],
    )


@functools.cache
def _offsite_contract_pdf() -> bytes:
    """The signed group booking contract with Lakeside Lodge."""
    return _pdf(
        f"{OFFSITE_VENUE} - group booking contract {OFFSITE_BOOKING}",
        [
            f"Client: Northwind Traders. Venue: {OFFSITE_VENUE}, {OFFSITE_PLACE}.",
            f"Dates: Wednesday April 22 to Friday April 24, 2026 ({OFFSITE_DATES}), 2 nights.",
            f"Group: {OFFSITE_PEOPLE} guests, single rooms, all meals, the Boathouse meeting room and AV.",
            "Total price: $38,500, all in.",
            "Deposit: $4,000, paid February 27, 2026 (invoice INV-20441).",
            "Balance: $34,500, due Wednesday April 8, 2026. Final headcount due Wednesday April 1, 2026.",
            "",
            "CANCELLATION",
            "Free cancellation until Monday March 23, 2026 (the deposit is refunded in full).",
            "From Tuesday March 24, 2026: 50% of the total price ($19,250) is due.",
            "From Wednesday April 15, 2026: 100% of the total price is due.",
            "Each guest fewer than 11 after April 1 is charged in full.",
            "",
            "Signed for Northwind Traders: Alex Morgan, Chief of Staff, February 27, 2026.",
            f"Signed for {OFFSITE_VENUE}: Claire Donovan, Events Manager, February 27, 2026.",
        ],
    )


@functools.cache
def _team_photo_png() -> bytes:
    """The leadership team photo from the 2025 offsite."""
    return make_png(640, 427, (46, 92, 120))


@functools.cache
def _handbook_docx() -> bytes:
    """The employee handbook on the Company Policies shared drive."""
    return make_docx(
        "Employee handbook 2026",
        [
            "Owner: Nora Patel, Head of People. Effective January 1, 2026.",
            "1. Working hours: core hours are 10:00-16:00 in your time zone; anchor days in the office are "
            "Tuesday and Thursday.",
            "2. Time off: 15 days of paid time off a year, plus 10 company holidays (see Holiday calendar 2026).",
            "3. Sick days: up to 10 paid sick days a year; no doctor's note needed for 3 days or fewer.",
            "4. Home office: remote and hybrid employees get a stipend of $600 per calendar year.",
            "5. Parental leave: 16 weeks fully paid; see the parental leave policy.",
            "6. Expenses: follow the travel and expense policy; keep receipts for anything over $25.",
            "7. Speaking up: tell your manager, People, or the confidential line at ethics@northwind.example.",
            "8. Equipment: report lost devices to Leo Hall (IT) within 1 hour.",
        ],
    )


@functools.cache
def _security_policy_pdf() -> bytes:
    """The signed information security policy."""
    return _pdf(
        "Information security policy",
        [*_lines(_SECURITY_POLICY), "", "Signed: Elena Petrova, VP of Engineering, January 20, 2026."],
    )


@functools.cache
def _expense_policy_pdf() -> bytes:
    """The travel and expense policy as published."""
    return _pdf("Travel and expense policy", _lines(_EXPENSE_POLICY))


_HOLIDAYS = """Date,Holiday,Offices
2026-01-01,New Year's Day,All
2026-01-19,Martin Luther King Jr. Day,All
2026-02-16,Presidents' Day,All
2026-05-25,Memorial Day,All
2026-06-19,Juneteenth,All
2026-07-03,Independence Day (observed),All
2026-09-07,Labor Day,All
2026-11-26,Thanksgiving Day,All
2026-11-27,Day after Thanksgiving,All
2026-12-25,Christmas Day,All
"""


@functools.cache
def _remote_policy_2023_pdf() -> bytes:
    """The remote work policy the 2026 one replaced."""
    return _pdf(
        "Remote work policy (2023)",
        [
            "Owner: Nora Patel. Effective March 1, 2023. Replaced on January 1, 2026.",
            "Office days: Tuesday, Wednesday and Thursday for everyone within 50 miles of an office.",
            "Home office stipend: $400 per calendar year.",
            "Working from another country: up to 10 working days per year.",
        ],
    )


@functools.cache
def _atlas_charter_docx() -> bytes:
    """The Atlas program charter."""
    return make_docx(
        "Atlas program charter",
        [
            "Sponsor: Elena Petrova (VP of Engineering). Program owner: Liam Chen. Started December 1, 2025.",
            "Goal: run the order and inventory services on the Atlas platform (managed Kubernetes and Postgres) "
            "and close the legacy data centre before its contract ends on May 31, 2026.",
            "In scope: orders, inventory, notifications, customer-portal. Out of scope until Q3: reporting, search.",
            "Funding: $120,000 of provider credits cover Atlas hosting through June 2026.",
            f"Production cutover: {ATLAS_CUTOVER}, 06:00-10:00 Eastern, with a 4-hour fallback window.",
            "Decisions: Liam Chen owns scope; Elena Petrova breaks ties; Mia Thompson owns the runbook.",
        ],
        table=[
            ["Role", "Person"],
            ["Sponsor", "Elena Petrova"],
            ["Program owner", "Liam Chen"],
            ["Runbook and on-call", "Mia Thompson"],
            ["Security review", "Kai Nakamura"],
        ],
    )


@functools.cache
def _atlas_costs_xlsx() -> bytes:
    """Atlas hosting costs against the provider credits."""
    return make_xlsx(
        {
            "Hosting": [
                ["Month", "Legacy data centre (USD)", "Atlas (USD)", "Credits applied (USD)"],
                ["2026-01", 41200, 9800, 9800],
                ["2026-02", 40900, 14600, 14600],
                ["2026-03", 40900, 17400, 17400],
            ],
            "Credits": [
                ["Item", "Amount (USD)"],
                ["Provider credits granted", 120000],
                ["Used to date", 41800],
                ["Remaining", 78200],
                ["Credits expire", "2026-06-30"],
            ],
        }
    )


_ATLAS_LOAD_TEST = """# Load test checklist - March 20

Owner: Mia Thompson. Target: 2x peak, 1,800 orders per minute for 30 minutes.

- [x] Test environment quota requested (Ethan Brooks)
- [ ] Quota approved (due March 12)
- [ ] Synthetic order generator pointed at the Atlas staging cluster (Noah Williams)
- [ ] Dashboards: checkout errors, p95 latency, replication lag (Sofia Garcia)
- Pass: checkout errors under 0.5% and p95 latency under 250 ms at 2x peak.
"""


def _pricing(fee: int, change: float, term: str, note: str) -> bytes:
    years: list[list[Any]] = [["Contract year", "Starts", "Annual fee (USD)", "Change vs current (%)"]]
    for n, start in enumerate(("2026-04-01", "2027-04-01", "2028-04-01"), start=1):
        years.append([n, start, fee, change])
    terms = [
        ["Item", "Value"],
        ["Contract", CONTOSO_CONTRACT],
        ["Purchase order", CONTOSO_PO],
        ["Term", term],
        ["Payment terms", "Net 30 (Contoso asks for Net 45)"],
        ["Note", note],
    ]
    return make_xlsx({"Pricing": years, "Terms": terms})


@functools.cache
def _contoso_pricing_xlsx(version: int = 3) -> bytes:
    """The renewal pricing workbook: v1 (+5%), v2 (+3%, agreed), v3 (FY2025 numbers pasted over it by mistake)."""
    if version == 1:
        return _pricing(453600, 5.0, "3 years from 2026-04-01", "First proposal, March 2")
    if version == 2:
        return _pricing(444960, 3.0, "3 years from 2026-04-01", "Proposal v3 sent to Contoso on March 4")
    return _pricing(432000, 0.0, "1 year from 2025-04-01", "FY2025 contract")


@functools.cache
def _pitch_notes_docx() -> bytes:
    """Talk track for the Northwind Live pitch."""
    return make_docx(
        "Northwind Live pitch notes",
        [
            "Owner: Lily Turner. For first meetings with operations leaders at mid-size distributors.",
            'Opening line: "Know where every order is, every hour."',
            "Proof point: Contoso cut stockouts by 28% and order-to-ship time from 2.4 to 1.6 days.",
            "Demo: the live inventory view, then a late truck rerouted in under a minute.",
            "Pricing questions go to the price list; discounts above 10% need James Okafor.",
        ],
    )


@functools.cache
def _battlecard_pdf() -> bytes:
    """The competitive battlecard for Q1."""
    return _pdf(
        "Competitive battlecard - Q1 2026",
        [
            "Owner: Zoe Adams. Updated February 12, 2026.",
            "Against spreadsheets: we show stock by warehouse every hour, with alerts.",
            "Against big ERP suites: live in 6 weeks, not 9 months; priced per warehouse.",
            "Where we lose: deals needing on-premises hosting. Walk away early.",
            "Win rate in Q4 2025: 38% overall, 52% when a customer reference call happened.",
        ],
    )


_PRICE_LIST = """Plan,Annual fee per warehouse (USD),Minimum warehouses,Includes
Starter,14000,1,Live inventory view; email support
Growth,26000,5,Live inventory view; order tracking; quarterly business reviews
Enterprise,32000,10,Everything in Growth; dedicated success manager; 99.95% uptime commitment
"""

# ---- the tree ---------------------------------------------------------------------------------
# A folder is (name, owner, modified, shares, children); a file is (name, owner, modified, shares, content
# [, extras]). "me" is the acting user; other owners are directory ids; shares are (who, role). Content is
# text, or a function returning a document's bytes. "modified" is a day (time drawn at random) or
# "YYYY-MM-DD HH:MM". Extras: {"versions": [(modified, who, content)], "modified_by": who}.

_Share = tuple[str, str]

_TREE: list[tuple[Any, ...]] = [
    (
        "Finance",
        "priya.shah",
        "2026-03-05",
        [
            ("marcus.reed", "writer"),
            ("me", "writer"),
            ("owen.bell", "writer"),
            ("grace.kim", "writer"),
            ("tomas.rivera", "writer"),
        ],
        [
            (
                "Budgets",
                "priya.shah",
                "2026-03-04",
                [],
                [
                    ("Q1 budget.xlsx", "priya.shah", "2026-03-02", [], _q1_budget_xlsx),
                    (
                        "Q2 budget draft.csv",
                        "grace.kim",
                        "2026-03-04",
                        [],
                        _Q2_BUDGET,
                        {"versions": [("2026-02-27 15:10", "grace.kim", _Q2_BUDGET_V1)]},
                    ),
                    (
                        "FY2026 budget summary.md",
                        "marcus.reed",
                        "2026-01-14",
                        [("dana.whitfield", "reader")],
                        _FY_SUMMARY,
                    ),
                    ("Budget review notes 2026-02-24.md", "me", "2026-02-24", [], _BUDGET_REVIEW_NOTES),
                ],
            ),
            (
                "Invoices",
                "tomas.rivera",
                "2026-03-05",
                [],
                [
                    ("Vendor invoices - February.csv", "tomas.rivera", "2026-02-27", [], _INVOICES_FEB),
                    ("Vendor invoices - March.csv", "tomas.rivera", "2026-03-05", [], _INVOICES_MAR),
                    ("Invoice approval process.md", "owen.bell", "2026-03-02", [], _INVOICE_PROCESS),
                ],
            ),
            (
                "Forecasts",
                "grace.kim",
                "2026-03-03",
                [],
                [
                    ("Revenue forecast 2026.xlsx", "grace.kim", "2026-03-03", [], _revenue_forecast_xlsx),
                    ("Cash flow model notes.md", "grace.kim", "2026-03-02", [], _CASH_FLOW_NOTES),
                ],
            ),
            ("Expense policy.md", "priya.shah", "2026-01-05", [("nora.patel", "reader")], _EXPENSE_POLICY),
            ("Audit prep checklist.md", "owen.bell", "2026-03-04", [], _AUDIT_CHECKLIST),
        ],
    ),
    (
        "Engineering",
        "elena.petrova",
        "2026-03-05",
        [("me", "commenter"), ("liam.chen", "writer"), ("ethan.brooks", "writer"), ("kai.nakamura", "writer")],
        [
            (
                "Atlas migration",
                "liam.chen",
                "2026-03-02",
                [("me", "writer"), ("sofia.garcia", "writer"), ("mia.thompson", "writer"), ("noah.williams", "writer")],
                [
                    ("Atlas migration plan.md", "liam.chen", "2026-02-27", [], _ATLAS_PLAN),
                    ("Atlas cutover runbook.md", "mia.thompson", "2026-03-03", [], ATLAS_RUNBOOK),
                    ("Atlas migration status 2026-03-04.md", "liam.chen", "2026-03-04", [], _ATLAS_STATUS),
                    ("Atlas risk register.csv", "sofia.garcia", "2026-02-26", [], _ATLAS_RISKS),
                ],
            ),
            (
                "Architecture",
                "elena.petrova",
                "2026-02-18",
                [("sofia.garcia", "writer"), ("lucas.martin", "writer")],
                [
                    ("Service catalog.csv", "ethan.brooks", "2026-02-12", [], _SERVICE_CATALOG),
                    ("ADR-014 Event bus selection.md", "sofia.garcia", "2026-02-10", [], _ADR_014),
                    ("ADR-015 Postgres 16.md", "lucas.martin", "2026-02-18", [], _ADR_015),
                ],
            ),
            (
                "On-call",
                "mia.thompson",
                "2026-02-16",
                [("noah.williams", "writer"), ("ava.johnson", "writer")],
                [
                    ("On-call rotation Q1.csv", "mia.thompson", "2026-01-02", [], _ONCALL),
                    (
                        "Incident postmortem INC-3021.md",
                        "mia.thompson",
                        "2026-02-16",
                        [("olivia.baker", "reader")],
                        POSTMORTEM,
                    ),
                ],
            ),
            (
                "Security",
                "kai.nakamura",
                "2026-02-24",
                [],
                [
                    ("Access review February 2026.csv", "kai.nakamura", "2026-02-24", [], _ACCESS_REVIEW),
                    (
                        "Information security policy.md",
                        "kai.nakamura",
                        "2026-01-20",
                        [("leo.hall", "writer")],
                        _SECURITY_POLICY,
                    ),
                ],
            ),
            ("Engineering leads notes 2026-03-05.md", "elena.petrova", "2026-03-05", [], _ENG_NOTES),
            (
                "Engineering hiring plan 2026.md",
                "elena.petrova",
                "2026-02-20",
                [("samuel.green", "writer")],
                _ENG_HIRING,
            ),
        ],
    ),
    (
        "Marketing",
        "zoe.adams",
        "2026-03-03",
        [("me", "writer"), ("henry.scott", "writer"), ("lily.turner", "writer"), ("jack.hughes", "writer")],
        [
            (
                "Campaigns",
                "zoe.adams",
                "2026-03-02",
                [],
                [
                    (
                        "Spring launch campaign brief.md",
                        "lily.turner",
                        "2026-02-25",
                        [("james.okafor", "commenter")],
                        CAMPAIGN_BRIEF,
                    ),
                    ("Campaign calendar Q2.csv", "henry.scott", "2026-03-02", [], _CAMPAIGN_CALENDAR),
                    ("Webinar series plan.md", "henry.scott", "2026-02-19", [], _WEBINAR_PLAN),
                ],
            ),
            (
                "Brand",
                "jack.hughes",
                "2026-01-22",
                [],
                [
                    ("Brand voice guide.md", "jack.hughes", "2026-01-22", [], _BRAND_VOICE),
                    ("Logo usage notes.txt", "jack.hughes", "2026-01-15", [], _LOGO_NOTES),
                ],
            ),
            (
                "Content",
                "henry.scott",
                "2026-03-03",
                [],
                [
                    ("Blog editorial calendar.csv", "henry.scott", "2026-03-03", [], _EDITORIAL_CALENDAR),
                    (
                        "Customer story - Contoso.md",
                        "henry.scott",
                        "2026-03-02",
                        [("ryan.cooper", "commenter")],
                        _CONTOSO_STORY,
                    ),
                ],
            ),
            ("Marketing budget tracker.csv", "zoe.adams", "2026-03-03", [("grace.kim", "reader")], _MKT_BUDGET),
            ("Marketing sync notes 2026-03-03.md", "zoe.adams", "2026-03-03", [], _MKT_NOTES),
        ],
    ),
    (
        "People",
        "nora.patel",
        "2026-03-04",
        [("me", "writer"), ("samuel.green", "writer"), ("ella.moore", "writer")],
        [
            (
                "Onboarding",
                "ella.moore",
                "2026-02-27",
                [("leo.hall", "writer"), ("ruby.walker", "reader")],
                [
                    ("New hire onboarding checklist.md", "ella.moore", "2026-02-27", [], _ONBOARDING_CHECKLIST),
                    ("IT setup checklist.txt", "leo.hall", "2026-02-09", [], _IT_SETUP),
                    ("Welcome packet.md", "ella.moore", "2026-01-26", [], _WELCOME_PACKET),
                ],
            ),
            (
                "Policies",
                "nora.patel",
                "2026-01-05",
                [],
                [
                    ("Remote work policy.md", "nora.patel", "2026-01-05", [], _REMOTE_POLICY),
                    ("Parental leave policy.md", "nora.patel", "2025-12-18", [], _PARENTAL_LEAVE),
                    ("Code of conduct.md", "nora.patel", "2025-11-10", [("isaac.king", "writer")], _CODE_OF_CONDUCT),
                ],
            ),
            (
                "Hiring",
                "samuel.green",
                "2026-03-06",
                [],
                [
                    ("Open roles 2026.csv", "samuel.green", "2026-03-04", [], _OPEN_ROLES),
                    (
                        "Interview loop - Senior Software Engineer.md",
                        "samuel.green",
                        "2026-01-21",
                        [("liam.chen", "writer"), ("ethan.brooks", "writer")],
                        _INTERVIEW_LOOP,
                    ),
                    ("Candidate pipeline March.csv", "samuel.green", "2026-03-06", [], _PIPELINE),
                ],
            ),
            ("Performance review cycle 2026.md", "nora.patel", "2026-02-11", [], _PERF_CYCLE),
        ],
    ),
    (
        "Operations",
        "victor.alvarez",
        "2026-03-06",
        [("me", "writer"), ("ruby.walker", "writer"), ("leo.hall", "writer"), ("maya.young", "writer")],
        [
            (
                "Vendors",
                "maya.young",
                "2026-03-05",
                [("tomas.rivera", "reader")],
                [
                    ("Vendor list.csv", "maya.young", "2026-03-05", [], _VENDOR_LIST),
                    (
                        "Contoso renewal notes.md",
                        "maya.young",
                        "2026-03-04",
                        [("isaac.king", "writer"), ("marcus.reed", "reader")],
                        _CONTOSO_NOTES,
                    ),
                    ("Vendor onboarding form.txt", "maya.young", "2025-10-07", [], _VENDOR_FORM),
                ],
            ),
            (
                "Facilities",
                "ruby.walker",
                "2026-03-02",
                [],
                [
                    ("Chicago office lease notes.md", "ruby.walker", "2026-03-02", [], _LEASE_NOTES),
                    ("Meeting rooms.csv", "ruby.walker", "2026-01-08", [("amelia.ward", "writer")], _ROOMS),
                ],
            ),
            (
                "IT",
                "leo.hall",
                "2026-02-26",
                [],
                [
                    ("Laptop inventory.csv", "leo.hall", "2026-02-26", [], _LAPTOPS),
                    ("Software licenses.csv", "leo.hall", "2026-02-20", [], _LICENSES),
                ],
            ),
            ("Ops weekly notes 2026-03-06.md", "victor.alvarez", "2026-03-06", [], _OPS_NOTES),
        ],
    ),
    (
        "Shared",
        "me",
        "2026-03-06",
        [("dana.whitfield", "writer"), ("amelia.ward", "writer")],
        [
            (
                "Offsite 2026",
                "me",
                "2026-03-06",
                [("ruby.walker", "writer")],
                [
                    (
                        "Offsite agenda draft.md",
                        "me",
                        "2026-03-06",
                        [("marcus.reed", "commenter")],
                        _OFFSITE_AGENDA,
                        {"versions": [("2026-03-02 18:05", "me", _OFFSITE_AGENDA_V1)]},
                    ),
                    ("Offsite venue options.csv", "amelia.ward", "2026-02-27", [], _VENUE_OPTIONS),
                    (
                        "Offsite attendee list.csv",
                        "me",
                        "2026-03-05",
                        [("events@lakesidelodge.example", "reader")],
                        _ATTENDEES,
                    ),
                    ("Lakeside Lodge contract (signed).pdf", "me", "2026-02-27 16:40", [], _offsite_contract_pdf),
                ],
            ),
            (
                "Leadership meetings",
                "amelia.ward",
                "2026-03-03",
                [],
                [
                    ("Leadership meeting notes 2026-02-24.md", "amelia.ward", "2026-02-24", [], _LEADERSHIP_0224),
                    ("Leadership meeting notes 2026-03-03.md", "amelia.ward", "2026-03-03", [], _LEADERSHIP_0303),
                ],
            ),
            (
                "Board",
                "dana.whitfield",
                "2026-03-03",
                [("marcus.reed", "writer")],
                [
                    ("Board deck outline Q1 2026.md", "dana.whitfield", "2026-03-03", [], _BOARD_OUTLINE),
                    ("Board meeting minutes 2026-01-28.pdf", "amelia.ward", "2026-01-29", [], _board_minutes_pdf),
                ],
            ),
            ("All-hands March 2026 talking points.md", "me", "2026-03-06", [], _ALL_HANDS),
            (
                "Company OKRs 2026.md",
                "dana.whitfield",
                "2026-01-09",
                [("elena.petrova", "reader"), ("james.okafor", "reader"), ("zoe.adams", "reader")],
                _OKRS,
            ),
        ],
    ),
    (
        "Archive",
        "me",
        "2026-02-10",
        [],
        [
            ("Leadership offsite 2025 agenda.md", "me", "2025-05-02", [], _OFFSITE_2025),
            ("Q4 2025 budget draft.csv", "me", "2025-10-20", [], _Q4_DRAFT),
            ("Leadership offsite 2025 - team photo.png", "me", "2025-05-16 10:05", [], _team_photo_png),
        ],
    ),
    ("Chief of staff weekly priorities.md", "me", "2026-03-08", [], _PRIORITIES),
    ("1-1 notes - Dana.md", "me", "2026-03-02", [], _ONE_ON_ONE),
    ("Reading list.txt", "me", "2025-12-28", [], _READING_LIST),
    ("Untitled document.txt", "me", "2026-02-17", [], _UNTITLED),
    (
        "Contoso renewal proposal.docx",
        "james.okafor",
        "2026-03-04",
        [("me", "commenter"), ("isabella.rossi", "writer"), ("procurement@contoso.example", "reader")],
        _contoso_proposal_docx,
        {
            "versions": [
                ("2026-02-27 11:20", "james.okafor", functools.partial(_contoso_proposal_docx, 1)),
                ("2026-03-02 17:45", "isabella.rossi", functools.partial(_contoso_proposal_docx, 2)),
            ]
        },
    ),
    (
        "Sales pipeline Q1.csv",
        "daniel.wright",
        "2026-03-06",
        [("me", "reader"), ("james.okafor", "writer"), ("marcus.reed", "reader")],
        _PIPELINE_Q1,
    ),
    (
        "Customer health scores.csv",
        "olivia.baker",
        "2026-03-05",
        [("me", "reader"), ("ryan.cooper", "writer"), ("emma.foster", "writer")],
        _HEALTH_SCORES,
    ),
    ("NDA template.docx", "isaac.king", "2026-01-12", [("me", "reader"), ("hannah.wood", "writer")], _nda_docx),
]

#: Items that start in the trash (by name).
_TRASHED = {"Q4 2025 budget draft.csv", "Untitled document.txt"}

#: Shared drives: (id, name, created, members [(who, role)], items as in TREE).
_SHARED_DRIVES: list[tuple[Any, ...]] = [
    (
        "sd_company_policies",
        "Company Policies",
        "2025-09-15",
        [
            ("nora.patel", "manager"),
            ("isaac.king", "manager"),
            ("kai.nakamura", "content_manager"),
            ("priya.shah", "content_manager"),
            ("ella.moore", "contributor"),
            ("me", "commenter"),
            ("dana.whitfield", "reader"),
        ],
        [
            ("Employee handbook 2026.docx", "nora.patel", "2026-01-05 11:30", [], _handbook_docx),
            ("Information security policy (signed).pdf", "kai.nakamura", "2026-01-20 16:15", [], _security_policy_pdf),
            ("Travel and expense policy 2026.pdf", "priya.shah", "2026-01-05 09:40", [], _expense_policy_pdf),
            ("Holiday calendar 2026.csv", "nora.patel", "2025-12-15 14:00", [], _HOLIDAYS),
            (
                "Retired policies",
                "nora.patel",
                "2026-01-05 11:45",
                [],
                [("Remote work policy 2023.pdf", "nora.patel", "2023-02-20 10:00", [], _remote_policy_2023_pdf)],
            ),
        ],
    ),
    (
        "sd_atlas_program",
        "Atlas Program",
        "2025-12-01",
        [
            ("elena.petrova", "manager"),
            ("liam.chen", "manager"),
            ("me", "content_manager"),
            ("mia.thompson", "content_manager"),
            ("sofia.garcia", "contributor"),
            ("kai.nakamura", "contributor"),
            ("noah.williams", "contributor"),
            ("ethan.brooks", "contributor"),
            ("olivia.baker", "reader"),
        ],
        [
            ("Atlas program charter.docx", "elena.petrova", "2025-12-01 10:00", [], _atlas_charter_docx),
            ("Atlas cutover runbook v1.2.pdf", "mia.thompson", "2026-03-03 17:20", [], atlas_runbook_pdf),
            ("Atlas cost tracker.xlsx", "liam.chen", "2026-03-02 12:35", [], _atlas_costs_xlsx),
            (
                "Load test",
                "mia.thompson",
                "2026-03-05 09:10",
                [],
                [("Load test checklist - March 20.md", "mia.thompson", "2026-03-05 09:10", [], _ATLAS_LOAD_TEST)],
            ),
        ],
    ),
    (
        "sd_sales_enablement",
        "Sales Enablement",
        "2025-10-01",
        [
            ("james.okafor", "manager"),
            ("isabella.rossi", "content_manager"),
            ("zoe.adams", "content_manager"),
            ("benjamin.clark", "contributor"),
            ("harper.lewis", "contributor"),
            ("daniel.wright", "contributor"),
            ("lily.turner", "contributor"),
            ("me", "contributor"),
        ],
        [
            (
                "Contoso renewal pricing.xlsx",
                "isabella.rossi",
                "2026-03-06 18:25",
                [],
                _contoso_pricing_xlsx,
                {
                    "modified_by": "benjamin.clark",
                    "versions": [
                        ("2026-03-02 10:15", "isabella.rossi", functools.partial(_contoso_pricing_xlsx, 1)),
                        ("2026-03-04 16:50", "isabella.rossi", functools.partial(_contoso_pricing_xlsx, 2)),
                    ],
                },
            ),
            ("Northwind Live pitch notes.docx", "lily.turner", "2026-02-20 13:05", [], _pitch_notes_docx),
            ("Competitive battlecard Q1 2026.pdf", "zoe.adams", "2026-02-12 15:30", [], _battlecard_pdf),
            ("Price list 2026.csv", "james.okafor", "2026-01-08 09:00", [], _PRICE_LIST),
        ],
    ),
]

#: Comments: (id, file id, author, "YYYY-MM-DD HH:MM", quote, body, resolved by, [(author, when, reply)]).
_COMMENTS: list[tuple[Any, ...]] = [
    (
        "cmt_0001",
        "file_offsite_agenda_draft",
        "marcus.reed",
        "2026-03-06 14:20",
        "09:00 Financial plan and Q2 budget (Marcus Reed)",
        "Could my session move to Thursday afternoon? I am on the lender call until 10:30 that morning.",
        "",
        [],
    ),
    (
        "cmt_0002",
        "file_offsite_agenda_draft",
        "dana.whitfield",
        "2026-03-06 17:05",
        "Olivia Baker to confirm a customer health session",
        "Yes to the customer health session; give Olivia 45 minutes on Thursday.",
        "",
        [("me", "2026-03-06 17:30", "Will do once she confirms.")],
    ),
    (
        "cmt_0003",
        "file_q2_budget_draft",
        "priya.shah",
        "2026-03-04 16:10",
        "Contractors,30000",
        "Halving contractors assumes both REQ-1042 hires start April 13. Elena, can you confirm?",
        "priya.shah",
        [("elena.petrova", "2026-03-04 17:02", "Confirmed, both start dates are set for April 13.")],
    ),
    (
        "cmt_0004",
        "file_contoso_renewal_proposal",
        "isabella.rossi",
        "2026-03-05 10:40",
        "Net 30",
        "Contoso legal wants our answer on Net 45 before their review closes on March 16.",
        "",
        [("james.okafor", "2026-03-05 11:15", "Marcus decides; I asked him to answer by March 12.")],
    ),
    (
        "cmt_0005",
        "file_atlas_cutover_runbook_v1_2",
        "kai.nakamura",
        "2026-03-04 09:30",
        "Switch DNS for orders.internal",
        "Add a step before the DNS switch: confirm the payment provider has allow-listed the new egress IPs.",
        "",
        [],
    ),
    (
        "cmt_0006",
        "file_employee_handbook_2026",
        "isaac.king",
        "2026-01-07 15:00",
        "ethics@northwind.example",
        "Please say the confidential line can also be reached by phone at extension 4499.",
        "nora.patel",
        [("nora.patel", "2026-01-08 09:20", "Added to the intranet page; the handbook keeps the address only.")],
    ),
    (
        "cmt_0007",
        "file_all_hands_march_2026_talking_points",
        "dana.whitfield",
        "2026-03-06 18:40",
        "Atlas: cutover on Saturday April 18",
        "Add a thank-you to the Atlas team here, by name if possible.",
        "",
        [],
    ),
]


def _slug(name: str) -> str:
    stem = re.sub(r"\.(md|csv|txt|docx|xlsx|pdf|png)$", "", name.lower())
    return re.sub(r"[^a-z0-9]+", "_", stem).strip("_")


def _bytes(body: str | Callable[[], bytes]) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else body()


def build(people: dict[str, dict[str, Any]], now: datetime, user: str) -> dict[str, Any]:
    """Return the drive's initial state with JSON-able values.

    ``{"files": {id: file}, "comments": {id: comment}, "shared_drives": {id: shared drive}}``;
    every file's bytes are kept as a shared blob and the record holds its id.

    Args:
        people: The directory's people keyed by id (``tools.companies.default.people.people_records()``).
        now: The frozen current instant; every timestamp lies before it.
        user: Email address of the acting user, who owns the items marked "me".
    """
    rng = random.Random(20260309)
    tz = now.tzinfo
    files: dict[str, dict[str, Any]] = {}

    def email(who: str) -> str:
        if who == "me":
            return user
        if "@" in who:
            return who
        return str(people[who]["email"])

    def at(text: str) -> datetime:
        day, _, clock = text.partition(" ")
        if clock:
            return datetime.combine(date.fromisoformat(day), time.fromisoformat(clock), tz)
        stamp = datetime.combine(date.fromisoformat(day), time(rng.randint(8, 17), rng.choice([0, 12, 27, 41, 55])), tz)
        return min(stamp, now - timedelta(hours=1))

    def blob_fields(name: str, body: str | Callable[[], bytes]) -> dict[str, Any]:
        data = _bytes(body)
        return {"blob": keep(data), "size": len(data), "mime_type": mime_type_for(name)}

    def add(spec: tuple[Any, ...], parent: str, drive_id: str) -> None:
        name, owner, day, shares, body, *rest = spec
        extras: dict[str, Any] = rest[0] if rest else {}
        is_folder = isinstance(body, list)
        fid = ("fld_" if is_folder else "file_") + _slug(name)
        if fid in files:
            raise ValueError(f"duplicate drive id {fid}")
        modified = at(day)
        created = modified if " " in day else modified - timedelta(days=rng.randint(0, 40), minutes=rng.randint(0, 300))
        created = min([created, *(at(v[0]) for v in extras.get("versions", ()))])
        owner_email = email(owner)
        perms = [] if drive_id else [{"email": owner_email, "role": "owner"}]
        record: dict[str, Any] = {
            "id": fid,
            "name": name,
            "kind": "folder" if is_folder else "file",
            "mime_type": _FOLDER_MIME,
            "parent_id": parent,
            "drive_id": drive_id,
            "owner": owner_email,
            "created": created.isoformat(),
            "modified": modified.isoformat(),
            "modified_by": email(extras.get("modified_by", owner)),
            "size": 0,
            "blob": "",
            "trashed": name in _TRASHED,
            "trashed_with": fid if name in _TRASHED else "",
            "permissions": perms
            + [{"email": email(who), "role": role} for who, role in shares if email(who) != owner_email],
            "versions": [
                {
                    "number": n,
                    "name": name,
                    **blob_fields(name, v_body),
                    "modified": at(v_day).isoformat(),
                    "modified_by": email(who),
                }
                for n, (v_day, who, v_body) in enumerate(extras.get("versions", ()), start=1)
            ],  # fmt: skip
        }
        if not is_folder:
            record.update(blob_fields(name, body))
        files[fid] = record
        if is_folder:
            for child in body:
                add(child, fid, drive_id)

    for spec in _TREE:
        add(spec, "root", "")
    drives: dict[str, dict[str, Any]] = {}
    for sd_id, sd_name, day, members, items in _SHARED_DRIVES:
        drives[sd_id] = {
            "id": sd_id,
            "name": sd_name,
            "created": datetime.combine(date.fromisoformat(day), time(9, 0), tz).isoformat(),
            "members": [{"email": email(who), "role": role} for who, role in members],
        }
        for spec in items:
            add(spec, sd_id, sd_id)
    comments: dict[str, dict[str, Any]] = {}
    for cid, file_id, author, when, quote, body, resolved_by, replies in _COMMENTS:
        if file_id not in files:
            raise ValueError(f"comment {cid} is on unknown file {file_id}")
        comments[cid] = {
            "id": cid,
            "file_id": file_id,
            "author": email(author),
            "body": body,
            "quote": quote,
            "created": at(when).isoformat(),
            "resolved": bool(resolved_by),
            "resolved_by": email(resolved_by) if resolved_by else "",
            "replies": [
                {"id": f"rpl_{cid[4:]}_{n}", "author": email(who), "body": text, "created": at(t).isoformat()}
                for n, (who, t, text) in enumerate(replies, start=1)
            ],
        }
    return {"files": files, "comments": comments, "shared_drives": drives}
