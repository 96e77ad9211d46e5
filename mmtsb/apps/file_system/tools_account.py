"""File-system account tools: signup, login, codes and profile (written once in :mod:`mmtsb.apps.account_tools`)."""

from __future__ import annotations

from mmtsb.apps.account_tools import AccountApp, Wording, add_account_tools
from mmtsb.apps.file_system.core import APP, FILES


# file_system_show_account, file_system_signup, file_system_delete_account, file_system_update_account_name,
# file_system_login, file_system_logout, file_system_send_verification_code, file_system_verify_account,
# file_system_send_password_reset_code, file_system_reset_password and file_system_show_profile:
add_account_tools(globals(), AccountApp(
    APP, "file-system", owned_tables=(FILES,), wording={
        "signup": Wording("Creates a new file-system account (empty: its home directory ~/ is "
                          "/home/<first name>/ and gets its folders as files are written there)."),
        "delete_account": Wording("Deletes the logged-in user's file-system account with all their files (as "
                                  "AppWorld does; their empty directory entries stay, reachable by nobody), and "
                                  "logs out."),
        "update_account_name": Wording("Changes the first and/or last name on the file-system account (the home "
                                       "directory keeps its path)."),
        "login": Wording(more="The returned access_token is also what other apps take as ``file_system_access_token`` "
                              "to attach files\nfrom, or download files into, your file system.")}))
