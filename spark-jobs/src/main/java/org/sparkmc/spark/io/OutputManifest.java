package org.sparkmc.spark.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.fs.ChecksumFileSystem;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The {@code _SUCCESS} file of a sparkmc output: written last, it lists every file and directory the output holds
 * (paths relative to the output), so a later {@code --overwrite} can tell a sparkmc output from any other directory
 * and replaces only a directory holding nothing but what sparkmc wrote there (and the checksum files a Hadoop file
 * system keeps beside them). (Tools that only test for
 * {@code _SUCCESS} see it as usual; S3A's committers also write JSON into it.)
 */
final class OutputManifest {
    static final String SUCCESS = "_SUCCESS";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String WRITER = "sparkmc";

    private OutputManifest() {
    }

    /** Writes {@code _SUCCESS} into {@code dir}, listing {@code entries}. */
    static void write(FileSystem fs, Path dir, List<String> entries) throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("writer", WRITER);
        doc.put("entries", entries);
        try (OutputStream out = fs.create(new Path(dir, SUCCESS), true)) {
            out.write(JSON.writeValueAsString(doc).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Every file and directory under {@code dir}, relative to it, sorted ({@code _SUCCESS} excluded). */
    static List<String> entries(FileSystem fs, Path dir) throws IOException {
        TreeSet<String> out = new TreeSet<>();
        collect(fs, dir, "", out);
        out.remove(SUCCESS);
        return new ArrayList<>(out);
    }

    private static void collect(FileSystem fs, Path dir, String prefix, TreeSet<String> out) throws IOException {
        for (FileStatus s : fs.listStatus(dir)) {
            String name = prefix + s.getPath().getName();
            out.add(name);
            if (s.isDirectory()) {
                collect(fs, s.getPath(), name + "/", out);
            }
        }
    }

    /**
     * {@code fs} listing its checksum files too: a checksum file system (Hadoop's local one) hides every
     * {@code .NAME.crc}, so a user's file of that name would be deleted with the output unseen.
     */
    private static FileSystem withChecksumFiles(FileSystem fs) {
        return fs instanceof ChecksumFileSystem checksums ? checksums.getRawFileSystem() : fs;
    }

    /** The file a Hadoop checksum file {@code dir/.NAME.crc} belongs to ({@code dir/NAME}), else null. */
    private static String checksummed(String entry) {
        int slash = entry.lastIndexOf('/') + 1;
        String name = entry.substring(slash);
        return name.startsWith(".") && name.endsWith(".crc") && name.length() > 5
                ? entry.substring(0, slash) + name.substring(1, name.length() - 4) : null;
    }

    /**
     * Why {@code dir} is not a sparkmc output that may be replaced, or null when it is one: it holds a
     * {@code _SUCCESS} written by sparkmc and nothing that file does not list.
     */
    static String whyNotReplaceable(FileSystem fs, Path dir) throws IOException {
        if (!fs.getFileStatus(dir).isDirectory()) {
            return "it is a file, not a sparkmc output directory";
        }
        Path success = new Path(dir, SUCCESS);
        if (!fs.exists(success)) {
            return "it is not a sparkmc output (it has no " + SUCCESS + ")";
        }
        JsonNode doc;
        try (InputStream in = fs.open(success)) {
            doc = JSON.readTree(in);
        } catch (IOException e) {
            doc = null;
        }
        if (doc == null || !WRITER.equals(doc.path("writer").asText()) || !doc.path("entries").isArray()) {
            return "its " + SUCCESS + " was not written by this version of sparkmc (it lists no files)";
        }
        TreeSet<String> ours = new TreeSet<>();
        doc.get("entries").forEach(e -> ours.add(e.asText()));
        ours.add(SUCCESS);
        List<String> foreign = new ArrayList<>();
        for (String entry : entries(withChecksumFiles(fs), dir)) {
            String owner = checksummed(entry);
            if (!ours.contains(entry) && (owner == null || !ours.contains(owner))) {
                foreign.add(entry);
            }
        }
        if (foreign.isEmpty()) {
            return null;
        }
        return "it holds " + foreign.size() + (foreign.size() == 1 ? " entry" : " entries")
                + " sparkmc did not write: " + String.join(", ", foreign.subList(0, Math.min(5, foreign.size())))
                + (foreign.size() > 5 ? ", …" : "");
    }
}
