package org.sparkmc.spark.io;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.TextInputFormat;

/**
 * Hadoop's {@link TextInputFormat} reading as {@link TextFiles#reader} reads on the driver: the file's name checked
 * against its content, a compressed file that breaks off named with the line reached, every line strict UTF-8 (file,
 * line and column in the error) and a byte-order mark at the start of a file dropped. Splits stay as Hadoop makes
 * them; the line number of an error in a later split is found by counting the file's lines before it (only then).
 * Its input paths must name files.
 */
public final class CheckedTextInputFormat extends TextInputFormat {
    /**
     * The input paths as they are: they name files (callers expand patterns and directories first), so no glob is
     * needed, and Hadoop's globber cannot walk a directory whose name holds a ':'.
     */
    @Override
    protected FileStatus[] listStatus(JobConf job) throws IOException {
        Path[] paths = getInputPaths(job);
        FileStatus[] files = new FileStatus[paths.length];
        for (int i = 0; i < paths.length; i++) {
            files[i] = paths[i].getFileSystem(job).getFileStatus(paths[i]);
        }
        return files;
    }

    @Override
    public RecordReader<LongWritable, Text> getRecordReader(InputSplit split, JobConf job, Reporter reporter)
            throws IOException {
        FileSplit file = (FileSplit) split;
        FileSystem fs = file.getPath().getFileSystem(job);
        CompressionCodec codec = TextFiles.codec(file.getPath(), fs, job);
        return new Checked(super.getRecordReader(split, job, reporter), file, fs, codec);
    }

    private static final class Checked implements RecordReader<LongWritable, Text> {
        private final RecordReader<LongWritable, Text> lines;
        private final FileSplit split;
        private final FileSystem fs;
        private final CompressionCodec codec;
        private final Utf8Lines utf8;
        private long read;

        Checked(RecordReader<LongWritable, Text> lines, FileSplit split, FileSystem fs, CompressionCodec codec) {
            this.lines = lines;
            this.split = split;
            this.fs = fs;
            this.codec = codec;
            this.utf8 = new Utf8Lines(split.getPath().toString());
        }

        @Override
        public boolean next(LongWritable key, Text value) throws IOException {
            boolean more;
            try {
                more = lines.next(key, value);
            } catch (IOException e) {
                if (codec != null) {
                    throw TextFiles.incomplete(split.getPath(), codec, read, e);
                }
                throw e;
            }
            if (!more) {
                return false;
            }
            read++;
            int from = 0;
            if (read == 1 && split.getStart() == 0) {
                from = Utf8Lines.bomLength(value.getBytes(), value.getLength());
            }
            if (!utf8.isValid(value.getBytes(), from, value.getLength() - from)) {
                // A compressed file is one split from its start; a plain one is counted up to the line's offset.
                utf8.check(value.getBytes(), from, value.getLength() - from,
                        codec == null ? linesBefore(key.get()) + 1 : read);
            }
            if (from > 0) {
                byte[] rest = java.util.Arrays.copyOfRange(value.getBytes(), from, value.getLength());
                value.set(rest);
            }
            return true;
        }

        /** Line ends (LF, CR LF or CR, as Hadoop's line reader takes them) in the file's first {@code offset} bytes. */
        private long linesBefore(long offset) throws IOException {
            long n = 0;
            try (InputStream in = new BufferedInputStream(fs.open(split.getPath()), 1 << 16)) {
                int previous = -1;
                for (long i = 0; i < offset; i++) {
                    int b = in.read();
                    if (b == '\n' || (previous == '\r' && b != '\n')) {
                        n++;
                    }
                    previous = b;
                }
                if (previous == '\r') {
                    n++; // a CR just before the line's start ends the line before it
                }
            }
            return n;
        }

        @Override
        public LongWritable createKey() {
            return lines.createKey();
        }

        @Override
        public Text createValue() {
            return lines.createValue();
        }

        @Override
        public long getPos() throws IOException {
            return lines.getPos();
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }

        @Override
        public float getProgress() throws IOException {
            return lines.getProgress();
        }
    }
}
