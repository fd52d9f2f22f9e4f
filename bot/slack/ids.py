"""Every identifier Slack sends back to us: the command, the events, button actions, the shortcut, the form and its
fields.

One place, so the manifest, the views that carry an id and the listeners that match it cannot drift apart.
"""

import re

from bot.model.calculator import Quantity

COMMAND = "/dpscale"
MENTION_EVENT = "app_mention"
HOME_EVENT = "app_home_opened"
RATE_LIMITED_EVENT = "app_rate_limited"  # a notice with no inner event, sent without a subscription
UNINSTALLED_EVENT = "app_uninstalled"
TOKENS_REVOKED_EVENT = "tokens_revoked"

SHARE_ACTION = "dpscale_share"
EDIT_ACTION = "dpscale_edit"
NUMBER_FORMAT_ACTION = "dpscale_number_format"  # App Home's menu of number formats
MESSAGE_SHORTCUT = "dpscale_calculate_message"  # "Calculate with dpscale" on a message (the manifests name it)

FORM_CALLBACK = "dpscale_form"
FORM_BLOCK_IDS = {quantity: f"field_{quantity.value}" for quantity in Quantity}
FORM_ACTION_ID = "value"
# a measurement series (`bot.slack.series`): its form, its two fields, and a result's Explanations button
SERIES_FORM_CALLBACK = "dpscale_series_form"
SERIES_BLOCK_IDS = {"throughput": "series_throughput", "rows": "series_rows"}
EXPLAIN_ACTION = "dpscale_explain"
# Workflow Builder's custom step (`bot.slack.steps`): its callback id in every manifest's `functions`
THROUGHPUT_STEP = "dpscale_throughput"
ANY_ID = re.compile(r".*")  # what an older version's buttons and forms are matched by
