package org.sparkmc.spark.bn;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.Reader;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.BifReader;
import org.sparkmc.spark.io.TextFiles;
import org.sparkmc.spark.io.UserPaths;

/**
 * Reads a Bayesian network in BIF through Hadoop's FileSystem on the driver, so the path may be local, hdfs:// or
 * s3a://. Syntax errors come back from {@link BifReader} as "path:line:column: what was expected".
 */
public final class NetworkReader {
    private NetworkReader() {
    }

    public static BayesNet read(String location, Configuration hadoopConf) {
        Path path = UserPaths.path("--network", location);
        try {
            FileSystem fs = path.getFileSystem(hadoopConf);
            if (fs.getFileStatus(path).isDirectory()) {
                throw new InvalidInputException("network file '" + location + "' is a directory, not a BIF file");
            }
            try (Reader reader = TextFiles.reader(path, hadoopConf)) {
                return BifReader.read(reader, location);
            }
        } catch (FileNotFoundException e) {
            throw new InvalidInputException("network file '" + location + "' does not exist");
        } catch (IOException e) {
            throw new InvalidInputException("cannot read network file '" + location + "': " + e.getMessage(), e);
        }
    }
}
