"""file_system: double slashes, file names with and directory names without an extension, parents created by
create_file."""

from mmtsb.testing.appworld.plan import call, sequence

SEQUENCES = [
    sequence(
        "file_system paths",
        call("file_system_create_directory", directory_path="~/docs", recursive=True),
        call("file_system_create_directory", directory_path="~/docs", recursive=True),
        call("file_system_create_directory", directory_path="~/v1.2", recursive=True),
        call("file_system_create_directory", directory_path="~/a//b", recursive=True),
        call("file_system_create_directory", directory_path="~/x/y/z"),
        call("file_system_create_file", file_path="~/docs/a.txt", content="hello"),
        call("file_system_create_file", file_path="~/docs/a.txt", content="again"),
        call("file_system_create_file", file_path="~/docs/a.txt", content="again", overwrite=True),
        call("file_system_create_file", file_path="~/new/deep/b.txt", content="made parents"),
        call("file_system_create_file", file_path="~/docs//c.txt", content="x"),
        call("file_system_create_file", file_path="~/docs/noext", content="x"),
        call("file_system_show_file", file_path="~/docs/a.txt"),
        call("file_system_show_file", file_path="~/docs/missing.txt"),
        call("file_system_update_file", file_path="~/docs/a.txt", content="changed"),
        call("file_system_file_exists", file_path="~/docs/a.txt"),
        call("file_system_directory_exists", directory_path="~/docs"),
        call("file_system_delete_file", file_path="~/docs/a.txt"),
        call("file_system_delete_file", file_path="~/docs/a.txt"),
        call("file_system_delete_directory", directory_path="~/new"),
    ),
]
