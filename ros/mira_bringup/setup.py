from setuptools import setup

package_name = 'mira_bringup'

setup(
    name=package_name,
    version='0.1.0',
    packages=[],
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        ('share/' + package_name + '/launch', ['launch/mira.launch.py']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Mira',
    maintainer_email='mira@example.org',
    description='Launches the Mira robot runtime as a ROS 2 node.',
    license='MIT',
)
