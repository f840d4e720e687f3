"""The built-in task families, one module each, listed here by hand in name order.

A new family is a module ``<name with underscores>.py`` in this folder holding ``FAMILY = Family(...)``
(see :mod:`gateway.tasks.kit.base`), added to the import and to :data:`MODULES` below. The machinery
reaches them only through :mod:`gateway.tasks.loader`.
"""

from __future__ import annotations

from gateway.tasks.families import (  # isort: skip
    box_contract_to_onedrive,
    box_remove_collaborator,
    box_restore_before_bad_edit,
    calendar_accept_mailed_invite,
    calendar_book_free_slot,
    calendar_decline_occurrence,
    calendar_move_requested_meeting,
    directory_namesake_invite,
    directory_skip_level,
    drive_budget_cell_answer,
    drive_share_file_with_role,
    drive_share_latest_draft,
    gmail_attachment_new_drive_version,
    gmail_change_request_drive_comment,
    gmail_contract_to_department_head,
    gmail_forward_invoice,
    gmail_forward_notice_department,
    gmail_label_vendor_filter,
    gmail_quote_award_rollout,
    gmail_reply_decision,
    gmail_reply_with_report,
    gmail_signed_sow_to_onedrive,
    gmail_superseded_share,
    gmail_vacation_leave,
    helpdesk_attach_mailed_file,
    helpdesk_close_confirmed,
    helpdesk_escalate_to_manager,
    helpdesk_fix_to_slack,
    helpdesk_followup_meeting,
    helpdesk_link_duplicates,
    helpdesk_onboarding_access,
    helpdesk_quote_to_drive,
    helpdesk_requester_open_count,
    helpdesk_triage_ticket,
    onedrive_company_link_by_mail,
    onedrive_moved_file_share,
    sharepoint_oncall_incident,
    sharepoint_overdue_to_slack,
    sharepoint_pending_requests_question,
    sharepoint_plan_to_slack,
    sharepoint_team_site_access,
    sharepoint_update_tracker_item,
    slack_moved_channel_post,
    slack_reply_decision_thread,
    slack_request_sharepoint_update,
    slack_signed_file_to_sharepoint,
    slack_team_channel,
    slack_thread_who_decided,
)
from types import ModuleType

from gateway.tasks.kit.base import Family

__all__ = ["FAMILIES", "MODULES"]

#: Every built-in family module, in name order (the order rows are built and listed in).
MODULES: tuple[ModuleType, ...] = (
    box_contract_to_onedrive,
    box_remove_collaborator,
    box_restore_before_bad_edit,
    calendar_accept_mailed_invite,
    calendar_book_free_slot,
    calendar_decline_occurrence,
    calendar_move_requested_meeting,
    directory_namesake_invite,
    directory_skip_level,
    drive_budget_cell_answer,
    drive_share_file_with_role,
    drive_share_latest_draft,
    gmail_attachment_new_drive_version,
    gmail_change_request_drive_comment,
    gmail_contract_to_department_head,
    gmail_forward_invoice,
    gmail_forward_notice_department,
    gmail_label_vendor_filter,
    gmail_quote_award_rollout,
    gmail_reply_decision,
    gmail_reply_with_report,
    gmail_signed_sow_to_onedrive,
    gmail_superseded_share,
    gmail_vacation_leave,
    helpdesk_attach_mailed_file,
    helpdesk_close_confirmed,
    helpdesk_escalate_to_manager,
    helpdesk_fix_to_slack,
    helpdesk_followup_meeting,
    helpdesk_link_duplicates,
    helpdesk_onboarding_access,
    helpdesk_quote_to_drive,
    helpdesk_requester_open_count,
    helpdesk_triage_ticket,
    onedrive_company_link_by_mail,
    onedrive_moved_file_share,
    sharepoint_oncall_incident,
    sharepoint_overdue_to_slack,
    sharepoint_pending_requests_question,
    sharepoint_plan_to_slack,
    sharepoint_team_site_access,
    sharepoint_update_tracker_item,
    slack_moved_channel_post,
    slack_reply_decision_thread,
    slack_request_sharepoint_update,
    slack_signed_file_to_sharepoint,
    slack_team_channel,
    slack_thread_who_decided,
)

#: Every built-in family, in the order of :data:`MODULES`.
FAMILIES: tuple[Family, ...] = tuple(m.FAMILY for m in MODULES)
