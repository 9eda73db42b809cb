# test/t/LabelamFiles.pm -- SELinux labels of files for the tests of
# src/files (test/t/51x_files_*.pl): set and read a file's security.selinux
# attribute, as setfattr and getfattr would (through Python's os module,
# which both this machine and the PostgreSQL 17 root have).
#
# The kernel decides who may set security.selinux: with SELinux compiled in
# but no policy loaded (this machine) the file's owner may; with SELinux
# off, only CAP_SYS_ADMIN.  files_node skips the test when the test's own
# user cannot label its own files.
package LabelamFiles;

use strict;
use warnings;
use IPC::Run ();
use Test::More;
use Exporter 'import';

our @EXPORT = qw(set_file_label file_label can_label_files files_dir
  write_file read_file labeled_file succeeds);

my $PY = '/usr/bin/python3';

# set_file_label(path, label): the label of what path names (a symlink's
# target)
sub set_file_label
{
	my ($path, $label) = @_;
	my ($out, $err);
	IPC::Run::run([ $PY, '-c',
		'import os, sys; os.setxattr(sys.argv[1], "security.selinux", sys.argv[2].encode() + b"\0")',
		$path, $label ], '>', \$out, '2>', \$err)
	  or die "cannot label $path: $err";
	return;
}

# file_label(path): its label (without the trailing NUL), undef if none
sub file_label
{
	my ($path) = @_;
	my ($out, $err);
	IPC::Run::run([ $PY, '-c',
		'import os, sys
try:
    print(os.getxattr(sys.argv[1], "security.selinux").rstrip(b"\0").decode())
except OSError as e:
    import errno
    if e.errno != errno.ENODATA:
        raise
    print("")', $path ], '>', \$out, '2>', \$err)
	  or die "cannot read the label of $path: $err";
	chomp $out;
	return $out eq '' ? undef : $out;
}

# can_label_files(dir): may this process label a file it owns in dir?
sub can_label_files
{
	my ($dir) = @_;
	my $probe = "$dir/label-probe";
	write_file($probe, '');
	my $ok = eval { set_file_label($probe, 'staff_u:object_r:user_tmp_t:s0'); 1 };
	unlink $probe;
	return $ok;
}

# files_dir(node, name, label): a directory under the node's base
# directory, labeled; skips the whole test if files cannot be labeled
sub files_dir
{
	my ($node, $name, $label) = @_;
	my $dir = $node->basedir . "/$name";
	mkdir $dir or die "mkdir $dir: $!";
	plan(skip_all => "this kernel lets only CAP_SYS_ADMIN set security.selinux")
	  unless can_label_files($dir);
	set_file_label($dir, $label);
	return $dir;
}

# labeled_file(path, label, text): a file of that text with that label
# (none if label is undef); returns path
sub labeled_file
{
	my ($path, $label, $text) = @_;
	write_file($path, $text);
	set_file_label($path, $label) if defined $label;
	return $path;
}

# succeeds(stderr, name): psql reported no error (it exits 0 after one
# unless told to stop)
sub succeeds
{
	my ($err, $name) = @_;
	unlike($err, qr/ERROR/, $name);
	return;
}

sub write_file
{
	my ($path, $text) = @_;
	open my $fh, '>', $path or die "cannot write $path: $!";
	print $fh $text;
	close $fh;
	return;
}

sub read_file
{
	my ($path) = @_;
	open my $fh, '<', $path or return undef;
	local $/;
	my $text = <$fh>;
	close $fh;
	return $text;
}

1;
