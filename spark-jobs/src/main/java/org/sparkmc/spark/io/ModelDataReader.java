package org.sparkmc.spark.io;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.sparkmc.core.InvalidInputException;

/**
 * Reads a model's data file — a JSON object of numbers and arrays, as Stan and posteriordb write them — through
 * Hadoop's FileSystem, so a data path may be local, hdfs:// or s3a://.
 */
public final class ModelDataReader {
    private ModelDataReader() {
    }

    public static Map<String, Object> read(String location, Configuration hadoopConf) {
        Path path = new Path(location);
        try {
            FileSystem fs = path.getFileSystem(hadoopConf);
            try (Reader reader = new InputStreamReader(fs.open(path), StandardCharsets.UTF_8)) {
                ConfigParseOptions options = ConfigParseOptions.defaults().setSyntax(ConfigSyntax.JSON)
                        .setOriginDescription(location);
                return new LinkedHashMap<>(ConfigFactory.parseReader(reader, options).root().unwrapped());
            }
        } catch (FileNotFoundException e) {
            throw new InvalidInputException("model data file '" + location + "' does not exist");
        } catch (ConfigException e) {
            throw new InvalidInputException("model data file is not a valid JSON object: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read model data file '" + location + "': " + e.getMessage(), e);
        }
    }
}
