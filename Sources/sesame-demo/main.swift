import ReferenceSDK
import ReferenceServer
print("demo: not yet built")
