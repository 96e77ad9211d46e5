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

SEQUENCES += [
    sequence(
        "file_system copy, move and archives",
        call("file_system_create_file", file_path="~/work/report.txt", content="Q1 numbers"),
        call("file_system_create_file", file_path="~/work/notes.md", content="todo"),
        call("file_system_copy_file", source_file_path="~/work/report.txt", destination_file_path="~/backup/report.txt"),
        call("file_system_create_directory", directory_path="~/backup"),
        call("file_system_copy_file", source_file_path="~/work/report.txt", destination_file_path="~/backup/report.txt"),
        call("file_system_copy_file", source_file_path="~/work/report.txt", destination_file_path="~/backup/report.txt"),
        call("file_system_copy_file", source_file_path="~/work/report.txt", destination_file_path="~/backup/report.txt",
             overwrite=True),
        call("file_system_move_file", source_file_path="~/work/notes.md", destination_file_path="~/backup/notes.md"),
        call("file_system_move_file", source_file_path="~/work/notes.md", destination_file_path="~/backup/notes.md"),
        call("file_system_show_directory", directory_path="~/backup"),
        call("file_system_copy_directory", source_directory_path="~/work", destination_directory_path="~/work2"),
        call("file_system_move_directory", source_directory_path="~/work2", destination_directory_path="~/archive/work2"),
        call("file_system_create_directory", directory_path="~/archive"),
        call("file_system_move_directory", source_directory_path="~/work2", destination_directory_path="~/archive/work2"),
        call("file_system_compress_directory", directory_path="~/backup"),
        call("file_system_compress_directory", directory_path="~/backup"),
        call("file_system_compress_directory", directory_path="~/archive", compressed_file_path="~/archive.tar",
             delete_directory=True),
        call("file_system_decompress_file", compressed_file_path="~/archive.tar"),
        call("file_system_decompress_file", compressed_file_path="~/backup.zip", decompressed_directory_path="~/restored"),
        call("file_system_update_file", file_path="~/backup/notes.md", content="done"),
        call("file_system_delete_directory", directory_path="~/backup"),
        call("file_system_show_file", file_path="~/backup/notes.md"),
        call("file_system_create_file", file_path="top.txt", content="relative"),
        call("file_system_show_file", file_path="/top.txt"),
        call("file_system_create_file", as_="bob", file_path="~/mine.txt", content="bob's"),
        call("file_system_show_file", file_path="/home/bob/mine.txt"),
    ),
]
