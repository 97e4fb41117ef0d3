// Starts AWS DynamoDB Local with its HTTP connector bound to 127.0.0.1 only.
// DynamoDB Local has no bind-address option (Jetty listens on every interface), so this
// launcher builds the server the way its own main() does and sets the connector host
// before starting it. Run in Java's single-file source mode (no compile step):
//   java -cp "DynamoDBLocal.jar:DynamoDBLocal_lib/*" LoopbackDynamoDBLocal.java -port 8100 ...
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

public class LoopbackDynamoDBLocal {
    public static void main(String[] args) throws Exception {
        DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
        Field field = DynamoDBProxyServer.class.getDeclaredField("server");
        field.setAccessible(true);
        Server jetty = (Server) field.get(proxy);
        for (Connector connector : jetty.getConnectors()) {
            ((ServerConnector) connector).setHost("127.0.0.1");
        }
        proxy.start();
        proxy.join();
    }
}
